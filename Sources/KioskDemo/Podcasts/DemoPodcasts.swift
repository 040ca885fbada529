import Foundation
import Hummingbird

/// A sample podcast and a sample video feed under `/podcasts/`, with small real media made once
/// on this machine (`Resources/podcast/README.md`): iTunes and Podcasting 2.0 tags, chapters and a
/// transcript, Media RSS formats, and media answered with byte ranges so a player can seek. No
/// latency or faults of their own; `/sites/podcast/` links both feeds for "Add feed".
struct DemoPodcasts: Sendable {
    static let prefix = "/podcasts/"
    static let audioFeed = "/podcasts/kiosk-demo.xml"
    static let videoFeed = "/podcasts/kiosk-video.xml"

    /// A file served from `Resources/podcast/`, with its type.
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    static let fileTypes: [String: String] = [
        "episode-1.mp3": "audio/mpeg", "episode-1.opus": "audio/ogg", "episode-2.mp3": "audio/mpeg",
        "episode-2.opus": "audio/ogg", "clip-1.webm": "video/webm",
        "episode-1.chapters.json": "application/json+chapters", "episode-1.vtt": "text/vtt; charset=utf-8",
    ]

    let files: [String: File]

    /// Reads every file; throws ``DemoError/missingResource(_:)`` naming the first one absent.
    static func load() throws(DemoError) -> DemoPodcasts {
        var files: [String: File] = [:]
        for (name, type) in fileTypes {
            let dot = name.lastIndex(of: ".") ?? name.endIndex
            guard
                let url = Bundle.module.url(
                    forResource: String(name[..<dot]), withExtension: String(name[name.index(after: dot)...]),
                    subdirectory: "Resources/podcast"),
                let data = try? Data(contentsOf: url)
            else { throw .missingResource("podcast/\(name)") }
            files[name] = File(bytes: [UInt8](data), contentType: type)
        }
        return DemoPodcasts(files: files)
    }

    /// The answer for `path` (under ``prefix``), with the server's own address for absolute links.
    func reply(path: String, headers: HTTPFields, base: String) -> DemoReply {
        switch path {
        case Self.audioFeed: return rss(audioFeedXML(base: base))
        case Self.videoFeed: return rss(videoFeedXML(base: base))
        default:
            let name = String(path.dropFirst(Self.prefix.count)).replacingOccurrences(of: "media/", with: "")
            guard let file = files[name] else { return .notFound }
            return Self.ranged(file, range: headers[.range])
        }
    }

    /// A file, whole or the range asked for (206 with `Content-Range`), or 416.
    static func ranged(_ file: File, range: String?) -> DemoReply {
        var headers = HTTPFields()
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "public, max-age=86400"
        switch ByteRange.read(range, length: file.bytes.count) {
        case .whole:
            return DemoReply(contentType: file.contentType, body: file.bytes, headers: headers)
        case .range(let range):
            headers[.contentRange] = "bytes \(range.lower)-\(range.upper)/\(file.bytes.count)"
            return DemoReply(
                status: .partialContent, contentType: file.contentType, body: Array(file.bytes[range.lower...range.upper]),
                headers: headers)
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(file.bytes.count)"
            return DemoReply(status: .rangeNotSatisfiable, contentType: "text/plain; charset=utf-8", body: [], headers: headers)
        }
    }

    private func rss(_ xml: String) -> DemoReply {
        DemoReply(contentType: "application/rss+xml; charset=utf-8", body: Array(xml.utf8))
    }

    private func length(_ name: String) -> Int { files[name]?.bytes.count ?? 0 }

    func audioFeedXML(base: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:podcast="https://podcastindex.org/namespace/1.0">
        <channel>
          <title>Kiosk Demo Podcast</title>
          <link>\(base)/sites/podcast/</link>
          <language>en</language>
          <description>Two short episodes, spoken by espeak-ng on this machine.</description>
          <itunes:author>Kiosk</itunes:author>
          <itunes:image href="\(base)/images/podcast/kiosk-demo/600x600bb.png"/>
          <item>
            <title>Episode 1: A short tour</title>
            <guid isPermaLink="false">kiosk-demo-podcast-1</guid>
            <pubDate>Sat, 28 Nov 2026 09:00:00 GMT</pubDate>
            <description>&lt;p&gt;What Kiosk does with an episode: it plays it, keeps your place, and lets you skip and change the speed.&lt;/p&gt;</description>
            <enclosure url="\(base)/podcasts/media/episode-1.mp3" type="audio/mpeg" length="\(length("episode-1.mp3"))"/>
            <itunes:duration>0:19</itunes:duration>
            <itunes:season>1</itunes:season>
            <itunes:episode>1</itunes:episode>
            <itunes:explicit>false</itunes:explicit>
            <itunes:image href="\(base)/images/podcast/episode-1/600x600bb.png"/>
            <podcast:chapters url="\(base)/podcasts/episode-1.chapters.json" type="application/json+chapters"/>
            <podcast:transcript url="\(base)/podcasts/episode-1.vtt" type="text/vtt" language="en"/>
          </item>
          <item>
            <title>Episode 2: Made offline</title>
            <guid isPermaLink="false">kiosk-demo-podcast-2</guid>
            <pubDate>Sun, 29 Nov 2026 09:00:00 GMT</pubDate>
            <description>&lt;p&gt;Everything you hear was made on this machine, with no network at all.&lt;/p&gt;</description>
            <enclosure url="media/episode-2.opus" type="audio/ogg" length="\(length("episode-2.opus"))"/>
            <itunes:duration>9</itunes:duration>
            <itunes:season>1</itunes:season>
            <itunes:episode>2</itunes:episode>
          </item>
        </channel>
        </rss>
        """
    }

    func videoFeedXML(base: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
        <channel>
          <title>Kiosk Demo Video</title>
          <link>\(base)/sites/podcast/</link>
          <description>A test pattern that talks.</description>
          <item>
            <title>Clip 1: Test pattern</title>
            <guid isPermaLink="false">kiosk-demo-video-1</guid>
            <pubDate>Sun, 29 Nov 2026 10:00:00 GMT</pubDate>
            <description>Nine seconds of ffmpeg's test pattern, with a voice.</description>
            <media:group>
              <media:content url="\(base)/podcasts/media/clip-1.webm" type="video/webm" medium="video" duration="9" fileSize="\(length("clip-1.webm"))"/>
              <media:thumbnail url="\(base)/images/video/clip-1/640x360bb.png"/>
            </media:group>
          </item>
        </channel>
        </rss>
        """
    }
}
