import Testing

@testable import KioskWeb

/// Only absolute http(s) links with a host become an `href`.
@Suite struct SafeLinkTests {
    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(document.cookie)", "  javascript:alert(1)", "JAVASCRIPT:void(0)",
        "data:text/html,<script>alert(1)</script>", "data:image/png;base64,iVBORw0KGgo=", "vbscript:msgbox(1)",
        "VBScript:msgbox(1)", "/relative/path", "relative/path", "../up", "?q=1", "#fragment",
        "//example.org/protocol-relative", "http://", "https://", "http:///path-only", "http:example.org",
        "https:/example.org", "ftp://example.org/file", "file:///etc/passwd", "mailto:someone@example.org",
        "blob:https://example.org/uuid", "", "   ",
    ])
    func rejects(_ link: String) {
        #expect(SafeLink.http(link) == nil, "\(link) must not pass")
    }

    @Test func rejectsNil() {
        #expect(SafeLink.http(nil) == nil)
    }

    @Test(arguments: [
        "http://example.org", "https://example.org/", "https://example.org/a/b?c=1&d=2#e", "http://127.0.0.1:8080/x",
        "https://user@example.org/path", "HTTPS://EXAMPLE.ORG/Path",
    ])
    func accepts(_ link: String) {
        #expect(SafeLink.http(link) == link)
    }

    @Test func trimsSurroundingWhitespace() {
        #expect(SafeLink.http("  https://example.org/story \n") == "https://example.org/story")
    }
}
