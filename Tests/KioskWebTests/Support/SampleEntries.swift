import Foundation
import KioskCore

/// Feed entries the tests publish on the hub by hand.
enum SampleEntries {
    /// A harmless entry, numbered.
    static func plain(_ number: Int) -> Entry {
        Entry(
            id: "urn:kiosk-test:\(number)", title: "Plain headline \(number)", link: "https://news.example.org/story/\(number)",
            published: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60),
            summary: "<p>Summary of story \(number).</p>")
    }

    /// The title of ``hostile``: markup that would run script if it were not escaped.
    static let hostileTitle = #"<script>alert("title")</script><img src=x onerror=alert(1)>"#

    /// What ``hostileTitle`` must render as.
    static let hostileTitleEscaped =
        "&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"

    /// An entry whose title, summary and link all carry script payloads.
    static let hostile = Entry(
        id: "urn:kiosk-test:hostile", title: hostileTitle, link: "javascript:alert(document.cookie)",
        published: Date(timeIntervalSince1970: 1_700_100_000),
        summary: #"""
            <p>Before</p><script>alert("summary")</script><img src="https://img.example.org/a.png" onerror="alert(2)">\#
            <a href="javascript:alert(3)">click</a><a href="JaVaScRiPt:alert(4)">again</a>\#
            <iframe src="javascript:alert(5)"></iframe><p onclick="alert(6)">After</p>\#
            <svg><script>alert(7)</script></svg><object data="javascript:alert(8)"></object>
            """#)
}
