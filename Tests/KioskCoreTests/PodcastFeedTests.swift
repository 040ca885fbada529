import Foundation
import Testing
@testable import KioskCore

/// Podcast and video feeds as publishers write them: iTunes and Podcasting 2.0 tags, Media RSS
/// groups, JSON Feed attachments, and the durations people get wrong.
@Suite struct PodcastFeedTests {
    private func entries(_ xml: String) throws -> [Entry] {
        try FeedParser.parse(Array(xml.utf8)).entries
    }

    private let namespaces = """
        xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" \
        xmlns:media="http://search.yahoo.com/mrss/"
        """

    @Test func iTunesAndPodcastingTwoTagsAreRead() throws {
        let entry = try #require(
            try entries(
                """
                <rss version="2.0" xml:base="https://pod.example/" \(namespaces)><channel><link>https://pod.example/</link>
                <item><title>Ep 12</title><guid>ep12</guid>
                  <enclosure url="/media/ep12.mp3" type="audio/mpeg" length="1200345"/>
                  <itunes:duration>1:02:03</itunes:duration><itunes:episode>12</itunes:episode>
                  <itunes:season>2</itunes:season><itunes:explicit>yes</itunes:explicit>
                  <itunes:image href="https://pod.example/ep12.jpg"/>
                  <podcast:chapters url="chapters/ep12.json" type="application/json+chapters"/>
                  <podcast:transcript url="https://pod.example/ep12.vtt" type="text/vtt" language="en" rel="captions"/>
                  <podcast:transcript url="https://pod.example/ep12.srt" type="application/x-subrip"/>
                </item></channel></rss>
                """
            ).first)
        #expect(entry.enclosures == [Enclosure(url: "https://pod.example/media/ep12.mp3", type: "audio/mpeg", length: 1_200_345)])
        #expect(entry.playableMedia?.kind == .audio)
        #expect(entry.image == "https://pod.example/ep12.jpg")
        let episode = try #require(entry.episode)
        #expect(episode.duration == 3723)
        #expect(episode.number == 12)
        #expect(episode.season == 2)
        #expect(episode.explicit == true)
        #expect(episode.chapters == MediaLink(url: "https://pod.example/chapters/ep12.json", type: "application/json+chapters"))
        #expect(
            episode.transcripts == [
                MediaLink(url: "https://pod.example/ep12.vtt", type: "text/vtt", language: "en", rel: "captions"),
                MediaLink(url: "https://pod.example/ep12.srt", type: "application/x-subrip"),
            ])
    }

    @Test(arguments: [
        ("1830", 1830), ("1830.5", 1830), (" 30:30 ", 1830), ("1:30:30", 5430), ("01:02:03.250", 3723), ("0", 0),
        ("62:03", 3723),
    ])
    func durationsAreRead(text: String, seconds: Int) {
        #expect(MediaDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["1:2:3:4", "-5", "", "30 min", "12:75", "1:60:00", "abc", "1.2.3", ":30", "30:", "99999999999", "5:-3"])
    func badDurationsAreNoDuration(text: String) {
        #expect(MediaDuration.seconds(text) == nil)
    }

    @Test func badTagsAreLeftOutAndAnEntryWithoutThemHasNoEpisode() throws {
        let parsed = try entries(
            """
            <rss version="2.0" \(namespaces)><channel>
            <item><title>A</title><itunes:duration>-5</itunes:duration><itunes:episode>two</itunes:episode>
              <itunes:explicit>maybe</itunes:explicit><podcast:transcript/></item>
            <item><title>B</title><enclosure url="https://pod.example/b.mp3" type="audio/mpeg" length="x"/></item>
            </channel></rss>
            """)
        #expect(parsed.map(\.episode) == [nil, nil])
        #expect(parsed[1].enclosures == [Enclosure(url: "https://pod.example/b.mp3", type: "audio/mpeg")])
    }

    @Test func severalEnclosuresAreKeptRepeatsIncludedAndCapped() throws {
        let many = (0..<300).map { "<enclosure url=\"https://pod.example/\($0).mp3\" type=\"audio/mpeg\"/>" }.joined()
        let entry = try #require(
            try entries(
                """
                <rss version="2.0"><channel><item><title>A</title>
                <enclosure url="https://pod.example/0.mp3" type="audio/mpeg"/>\(many)</item></channel></rss>
                """
            ).first)
        #expect(entry.enclosures.count == MutableEntry.maxEnclosures)
        // feedparser keeps a repeated enclosure; so does Kiosk (the player plays the first).
        #expect(entry.enclosures.prefix(2).map(\.url) == ["https://pod.example/0.mp3", "https://pod.example/0.mp3"])
    }

    @Test func mediaGroupFormatsAreKeptApartFromEnclosuresAndImagesStayImages() throws {
        let entry = try #require(
            try entries(
                """
                <rss version="2.0" \(namespaces)><channel><item><title>Video</title>
                  <enclosure url="https://v.example/a.mp4" type="video/mp4"/>
                  <media:group>
                    <media:content url="https://v.example/a.mp4" type="video/mp4"/>
                    <media:content url="https://v.example/a.webm" type="video/webm" duration="185" fileSize="9000"/>
                    <media:content url="https://v.example/a.swf" type="application/x-shockwave-flash"/>
                    <media:content url="https://v.example/still.jpg" medium="image"/>
                    <media:thumbnail url="https://v.example/thumb.jpg"/>
                  </media:group>
                </item></channel></rss>
                """
            ).first)
        #expect(entry.enclosures.map(\.url) == ["https://v.example/a.mp4"])
        #expect(entry.media == [Enclosure(url: "https://v.example/a.webm", type: "video/webm", length: 9000, duration: 185)])
        #expect(entry.image == "https://v.example/still.jpg")
        #expect(entry.playableMedia?.url == "https://v.example/a.mp4")
        #expect(entry.playableMedia?.kind == .video)
    }

    @Test func atomEnclosureLinksAndJSONFeedAttachmentsCarryTheirFacts() throws {
        let atom = try #require(
            try entries(
                """
                <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://a.example/feed/">
                <entry><id>1</id><title>A</title><link rel="enclosure" href="../ep.m4a"/></entry></feed>
                """
            ).first)
        #expect(atom.enclosures == [Enclosure(url: "https://a.example/ep.m4a", type: nil)])
        #expect(atom.playableMedia?.kind == .audio)  // by its extension: the type was left out

        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "home_page_url": "https://j.example/",
             "items": [{"id": "1", "content_text": "x", "attachments": [
               {"url": "ep1.mp3", "mime_type": "audio/mpeg", "duration_in_seconds": 1830.7},
               {"url": "ep1.pdf", "mime_type": "application/pdf", "duration_in_seconds": -4}]}]}
            """
        let entry = try #require(try FeedParser.parse(Array(json.utf8)).entries.first)
        #expect(entry.enclosures.map(\.url) == ["https://j.example/ep1.mp3", "https://j.example/ep1.pdf"])
        #expect(entry.enclosures.map(\.duration) == [1830, nil])
        #expect(entry.enclosures.map(\.kind) == [.audio, nil])
    }

    @Test func anEntryWithoutMediaEncodesAsBefore() throws {
        // Stored rows are the entry's JSON; one without media must not gain keys (an unchanged
        // entry is told from a changed one by its text).
        let entry = Entry(id: "1", title: "T", enclosures: [Enclosure(url: "https://x.example/a.jpg", type: "image/jpeg")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(entry), as: UTF8.self)
        #expect(!text.contains("episode") && !text.contains("media") && !text.contains("duration"))
        let old = #"{"authors":[],"categories":[],"enclosures":[{"url":"https:\/\/x.example\/a.mp3"}],"id":"1"}"#
        let decoded = try JSONDecoder().decode(Entry.self, from: Data(old.utf8))
        #expect(decoded.playableMedia?.kind == .audio)
        #expect(decoded.episode == nil && decoded.media == nil)
    }
}

/// Podcasting 2.0's JSON chapters, as a listener sees them.
@Suite struct PodcastChaptersTests {
    private func parse(_ json: String) throws(ChaptersError) -> [Chapter] {
        try PodcastChapters.parse(Array(json.utf8))
    }

    @Test func chaptersAreReadInOrderWithoutSilentMarkers() throws {
        let chapters = try parse(
            """
            {"version": "1.2.0", "chapters": [
              {"startTime": 95.5, "title": "  Second  ", "img": "https://x.example/2.jpg"},
              {"startTime": 0, "title": "First"},
              {"startTime": 40, "title": "Hidden marker", "toc": false},
              {"startTime": -3, "title": "Before the start"},
              {"startTime": 50},
              {"title": "No time"},
              {"startTime": 60, "title": "\(String(repeating: "x", count: 500))"}
            ]}
            """)
        #expect(chapters.map(\.title.count) == [5, 200, 6])
        #expect(chapters.map(\.start) == [0, 60, 95.5])
        #expect(chapters.last?.title == "Second")
    }

    @Test func whatIsNotChaptersSaysSo() {
        #expect(throws: ChaptersError.notChapters) { try parse("<html>not json</html>") }
        #expect(throws: ChaptersError.notChapters) { try parse(#"{"version": "1.2.0"}"#) }
        #expect(throws: ChaptersError.notChapters) { try parse(#"{"chapters": "none"}"#) }
        let huge = Array(repeating: UInt8(ascii: " "), count: PodcastChapters.maxBytes + 1)
        #expect(throws: ChaptersError.tooLarge(limit: PodcastChapters.maxBytes)) { try PodcastChapters.parse(huge) }
    }

    @Test func manyChaptersAreCapped() throws {
        let items = (0..<2000).map { #"{"startTime": \#($0), "title": "c\#($0)"}"# }.joined(separator: ",")
        #expect(try parse(#"{"chapters": [\#(items)]}"#).count == PodcastChapters.maxChapters)
    }
}

/// Timed transcripts: WebVTT, SRT and Podcasting 2.0's JSON, as a player follows them.
@Suite struct PodcastTranscriptTests {
    private func parse(_ text: String, _ format: PodcastTranscript.Format) throws(TranscriptError) -> [TranscriptCue] {
        try PodcastTranscript.parse(Array(text.utf8), format: format)
    }

    @Test func webVTTCuesAreReadWithTheirWordsOnly() throws {
        let cues = try parse(
            """
            WEBVTT - a test

            NOTE a comment --> not a cue

            intro
            00:00.000 --> 00:03.500 align:start
            <v Ann>Welcome</v> to &amp; <i>the</i> show.

            00:00:03.500 --> 00:00:06.000
            Second line,
            in two parts.

            00:00:09.000 --> 00:00:07.000
            Ends before it starts.
            """, .webVTT)
        #expect(cues == [
            TranscriptCue(start: 0, end: 3.5, text: "Welcome to & the show."),
            TranscriptCue(start: 3.5, end: 6, text: "Second line, in two parts."),
        ])
    }

    @Test func subRipAndJSONAreRead() throws {
        let srt = try parse("1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n\r\n2\r\n00:01:00,000 --> 00:01:02,000\r\nAgain\r\n", .subRip)
        #expect(srt.map(\.start) == [1, 60])
        #expect(srt.map(\.text) == ["Hello", "Again"])
        let json = try parse(
            #"{"version": "1.0.0", "segments": [{"speaker": "A", "startTime": 2.5, "endTime": 4, "body": " Hi "},"#
                + #"{"startTime": 1, "body": "First"}, {"startTime": -1, "body": "x"}, {"startTime": 5}]}"#, .json)
        #expect(json == [TranscriptCue(start: 1, end: 1, text: "First"), TranscriptCue(start: 2.5, end: 4, text: "Hi")])
    }

    @Test func formatsAreKnownByTheirType() {
        #expect(PodcastTranscript.Format(type: "text/vtt; charset=utf-8") == .webVTT)
        #expect(PodcastTranscript.Format(type: "application/x-subrip") == .subRip)
        #expect(PodcastTranscript.Format(type: "application/json") == .json)
        #expect(PodcastTranscript.Format(type: "text/plain") == nil)
        #expect(PodcastTranscript.Format(type: "text/html") == nil)
        #expect(PodcastTranscript.Format(type: nil) == nil)
    }

    @Test(arguments: ["00:01.5", "1:02:03.25", "00:00:00,001"])
    func timestampsAreRead(text: String) {
        #expect(PodcastTranscript.seconds(text) != nil)
    }

    @Test(arguments: ["", "1", "00:61.0", "-1:00", "aa:bb", "1:2:3:4", "00:00:1e9"])
    func badTimestampsAreNot(text: String) {
        #expect(PodcastTranscript.seconds(text) == nil)
    }

    @Test func whatIsNoTranscriptSaysSo() {
        #expect(throws: TranscriptError.self) { try parse("Just words, no timing.", .webVTT) }
        #expect(throws: TranscriptError.self) { try parse("WEBVTT\n\nno cues here\n", .webVTT) }
        #expect(throws: TranscriptError.self) { try parse("{}", .json) }
        let huge = Array(repeating: UInt8(ascii: "a"), count: PodcastTranscript.maxBytes + 1)
        #expect(throws: TranscriptError.tooLarge(limit: PodcastTranscript.maxBytes)) {
            try PodcastTranscript.parse(huge, format: .subRip)
        }
    }
}
