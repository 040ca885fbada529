import Foundation
import KioskCore
import Testing

@testable import KioskDemo

/// `/podcasts/`: the sample podcast and video feeds, their real media answered in byte ranges.
@Suite struct DemoPodcastsTests {
    @Test func theFeedsParseWithTheirEpisodesFilesChaptersAndTranscript() throws {
        let podcasts = try DemoPodcasts.load()
        let base = "http://127.0.0.1:8081"
        let audio = try FeedParser.parse(podcasts.reply(path: DemoPodcasts.audioFeed, headers: [:], base: base).body)
        #expect(audio.title == "Kiosk Demo Podcast")
        #expect(audio.entries.count == 2)
        let first = try #require(audio.entries.first)
        #expect(first.playableMedia?.url == "\(base)/podcasts/media/episode-1.mp3")
        #expect(first.enclosures.first?.length == podcasts.files["episode-1.mp3"]?.bytes.count)
        #expect(first.episode?.duration == 19)
        #expect(first.episode?.chapters?.url == "\(base)/podcasts/episode-1.chapters.json")
        #expect(first.episode?.transcripts.map(\.type) == ["text/vtt"])
        // Episode 2's file is written relative to the feed, as some publishers do.
        #expect(audio.entries[1].playableMedia?.url == "media/episode-2.opus")

        let video = try FeedParser.parse(podcasts.reply(path: DemoPodcasts.videoFeed, headers: [:], base: base).body)
        #expect(video.entries.first?.playableMedia?.kind == .video)
        #expect(video.entries.first?.image == "\(base)/images/video/clip-1/640x360bb.png")

        // Every file the feeds name is served.
        for name in ["media/episode-1.mp3", "media/episode-2.opus", "media/clip-1.webm", "episode-1.chapters.json", "episode-1.vtt"] {
            #expect(podcasts.reply(path: DemoPodcasts.prefix + name, headers: [:], base: base).status == .ok, "\(name)")
        }
        #expect(podcasts.reply(path: "/podcasts/media/nothing.mp3", headers: [:], base: base).status == .notFound)
        let chapters = podcasts.reply(path: "/podcasts/episode-1.chapters.json", headers: [:], base: base).body
        #expect(try JSONSerialization.jsonObject(with: Data(chapters)) is [String: Any])
    }

    @Test func theMediaIsSmallAndRealAudio() throws {
        let files = try DemoPodcasts.load().files
        #expect(files.values.reduce(0) { $0 + $1.bytes.count } < 1_000_000)
        #expect(files["episode-1.mp3"]?.bytes.starts(with: Array("ID3".utf8)) == true || files["episode-1.mp3"]?.bytes.first == 0xFF)
        #expect(files["episode-1.opus"]?.bytes.starts(with: Array("OggS".utf8)) == true)
        #expect(files["clip-1.webm"]?.bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) == true)  // EBML
    }

    @Test(arguments: [
        ("bytes=0-99", ByteRange.Reading.range(ByteRange(lower: 0, upper: 99))),
        ("bytes=900-", .range(ByteRange(lower: 900, upper: 999))),
        ("bytes=-100", .range(ByteRange(lower: 900, upper: 999))),
        ("bytes=-5000", .range(ByteRange(lower: 0, upper: 999))),
        ("bytes=990-5000", .range(ByteRange(lower: 990, upper: 999))),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=5-2", .whole),
        ("bytes=0-1,5-6", .whole),
        ("items=0-5", .whole),
        ("bytes=x-y", .whole),
        ("bytes=--5", .whole),
        ("bytes=+0-+9", .whole),
        ("bytes=1 0-20", .whole),
    ])
    func rangesAreRead(header: String, reading: ByteRange.Reading) {
        #expect(ByteRange.read(header, length: 1000) == reading)
    }

    @Test func aRangeIsAnsweredWith206AndItsContentRange() throws {
        let file = DemoPodcasts.File(bytes: Array(0..<200).map { UInt8($0) }, contentType: "audio/mpeg")
        let part = DemoPodcasts.ranged(file, range: "bytes=10-19")
        #expect(part.status == .partialContent)
        #expect(part.headers[.contentRange] == "bytes 10-19/200")
        #expect(part.body == Array(10..<20).map { UInt8($0) })
        let whole = DemoPodcasts.ranged(file, range: nil)
        #expect(whole.status == .ok && whole.body.count == 200 && whole.headers[.acceptRanges] == "bytes")
        let past = DemoPodcasts.ranged(file, range: "bytes=300-")
        #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */200")
    }
}
