import Foundation
import KioskCore
import KioskStore

/// The player an entry with audio or video shows above its text: the file straight from the
/// publisher (as podcast apps play it), a big Play button, skips back 15 s and ahead 30 s, a speed kept per feed, a
/// sleep timer, and what the feed says of the episode. `player.js` drives the buttons and the
/// lock screen (Media Session); without script the browser's own controls still play it.
struct EpisodePlayer {
    var file: Enclosure
    /// Where the player loads the file: its address (absolute, http(s)), or the media proxy's
    /// signed path for it.
    var url: String
    var kind: MediaKind
    var episode: Episode?
    var feedID: String
    var title: String
    var feedName: String
    /// The episode's artwork through the image proxy, when it has one.
    var artwork: String?
    /// Where the player asks for the episode's chapters, when the feed links some.
    var chaptersPath: String?
    /// Where the player asks for the episode's timed transcript, when the feed links one.
    var transcriptPath: String?
    /// Where the player keeps the user's place, and the place kept (from any device).
    var place: Place?
    /// The file through the media proxy, which "Save for offline" keeps on the device (same
    /// origin, so the service worker can answer the player's ranges from it); nil without a proxy.
    var offlinePath: String?

    /// The account's place in this episode, for the player to resume at and to say where.
    struct Place {
        var entryID: Int64
        /// `POST` here: `seconds`, `duration`, `playing`, `finished`, `client`.
        var path: String
        var saved: PlaybackPosition?
        /// When the page is drawn (a place saved as playing long ago is no longer playing).
        var now: Date

        /// Where playing starts: the saved place, or the start again once it was finished.
        var resume: Double {
            guard let saved, !saved.isFinished else { return 0 }
            return saved.seconds
        }

        /// "Paused at 23:10 on iPhone", "Playing on iPhone (23:10)", "Played on iPhone"; nil
        /// when never played.
        var sentence: String? {
            guard let saved else { return nil }
            return Self.sentence(
                seconds: saved.seconds, isPlaying: saved.isPlaying && now.timeIntervalSince(saved.savedAt) < 60,
                isFinished: saved.isFinished, device: saved.device)
        }

        /// The same words player.js writes when a place arrives live.
        static func sentence(seconds: Double, isPlaying: Bool, isFinished: Bool, device: String) -> String {
            let at = EpisodePlayer.clock(Int(seconds.rounded(.down)))
            if isFinished { return "Played to the end on \(device)" }
            return isPlaying ? "Playing on \(device) (\(at))" : "Paused at \(at) on \(device)"
        }
    }

    static let speeds = ["0.8", "1", "1.2", "1.5", "1.75", "2", "2.5", "3"]
    static let sleepMinutes = [5, 15, 30, 45, 60]

    /// The player for an entry, or nil when it has nothing a browser can play. A relative address
    /// is read against the feed's own URL (where it was fetched from), as feed readers do.
    init?(
        entry: Entry, feedURL: URL, feedID: String, mediaPath: ((String) -> String?)? = nil, throughKiosk: Bool = false,
        chaptersPath: String? = nil, transcriptPath: String? = nil,
        title: String, feedName: String, artwork: String?, place: Place? = nil
    ) {
        guard let file = entry.playableMedia, let kind = file.kind,
            let url = SafeLink.http(URLResolution.resolve(file.url, against: feedURL.absoluteString))
        else { return nil }
        self.file = file
        // Through Kiosk when asked and the proxy takes it (not a private host it does not trust).
        let proxied = mediaPath?(url)
        self.url = throughKiosk ? proxied ?? url : url
        self.offlinePath = proxied
        self.kind = kind
        self.episode = entry.episode
        self.feedID = feedID
        self.title = title
        self.feedName = feedName
        self.artwork = artwork
        self.chaptersPath = chaptersPath
        self.transcriptPath = transcriptPath
        self.place = place
    }

    /// The transcript a player can follow: the first the feed lists in a timed format (captions
    /// before the others, as podcast apps pick), with that format.
    static func timedTranscript(of entry: Entry) -> (MediaLink, PodcastTranscript.Format)? {
        PodcastTranscript.timed(in: entry.episode?.transcripts ?? []).map { ($0.link, $0.format) }
    }

    var node: Node {
        el("section", .class("player player-\(kind.rawValue)"), .id("player"), .aria("label", "Player"),
            .data("feed", feedID), .data("title", title), .data("artist", feedName), artwork.map { .data("artwork", $0) },
            place.map { .data("entry", String($0.entryID)) }, place.map { .data("position-url", $0.path) },
            place.map { .data("resume", String($0.resume)) }, offlinePath.map { .data("offline-src", $0) }) {
            el(kind.rawValue, .id("player-media"), .src(url), Attribute("controls", nil), Attribute("preload", "metadata"),
                kind == .video ? artwork.map { Attribute("poster", $0) } : nil,
                kind == .video ? Attribute("playsinline", nil) : nil) {
                el("a", .href(url)) { "Download the \(kind.rawValue)" }
            }
            el("div", .class("player-controls")) {
                el("button", .type("button"), .class("button primary player-play"), .id("player-play"),
                    .aria("pressed", "false")) { "Play" }
                el("button", .type("button"), .class("button player-skip"), .id("player-back"), .data("skip", "-15"),
                    .aria("label", "Back 15 seconds")) { "−15 s" }
                el("button", .type("button"), .class("button player-skip"), .id("player-ahead"), .data("skip", "30"),
                    .aria("label", "Ahead 30 seconds")) { "+30 s" }
                el("label", .class("player-setting")) {
                    "Speed "
                    el("select", .id("player-speed"), .name("speed")) {
                        for speed in Self.speeds {
                            el("option", .value(speed), .flag("selected", speed == "1")) { "\(speed)×" }
                        }
                    }
                }
                el("label", .class("player-setting")) {
                    "Sleep "
                    el("select", .id("player-sleep"), .name("sleep")) {
                        el("option", .value("0")) { "Off" }
                        for minutes in Self.sleepMinutes {
                            el("option", .value(String(minutes))) { "\(minutes) min" }
                        }
                    }
                }
                if offlinePath != nil {
                    // Shown by player.js where Cache Storage is there to keep the file in.
                    el("button", .type("button"), .class("button player-offline"), .id("player-offline"),
                        .aria("pressed", "false"), Attribute("hidden", nil)) { "Save for offline" }
                }
                if place != nil {
                    // Finished without playing the rest: read, out of Listen, on every device.
                    el("button", .type("button"), .class("button player-played"), .id("player-played")) { "Mark as played" }
                }
            }
            let facts = Self.facts(of: episode, file: file)
            if !facts.isEmpty {
                el("p", .class("player-facts muted"), .id("player-facts")) { facts.joined(separator: " · ") }
            }
            el("p", .class("player-status muted"), .id("player-status"), .aria("live", "polite")) {}
            // Where this account is in the episode, from whichever device; player.js keeps it live.
            el("p", .class("player-elsewhere muted"), .id("player-elsewhere"),
                .flag("hidden", place?.sentence == nil)) { place?.sentence ?? "" }
            if let chaptersPath {
                // Filled by player.js from `data-src` (fetched on the server, through the guard).
                el("section", .class("player-chapters"), .id("chapters"), .data("src", chaptersPath),
                    .aria("labelledby", "chapters-heading"), Attribute("hidden", nil)) {
                    el("h2", .id("chapters-heading"), .class("player-chapters-heading")) { "Chapters" }
                    el("ol", .id("chapter-list"), .class("chapter-list")) {}
                }
            }
            if let transcriptPath {
                // Filled by player.js; the line being said is marked and kept in view.
                el("section", .class("player-transcript"), .id("transcript"), .data("src", transcriptPath),
                    .aria("labelledby", "transcript-heading"), Attribute("hidden", nil)) {
                    el("h2", .id("transcript-heading"), .class("player-chapters-heading")) { "Transcript" }
                    el("div", .id("transcript-lines"), .class("transcript-lines"), Attribute("tabindex", "0")) {}
                }
            }
        }
    }

    /// "Season 2 · Episode 12 · 1:02:03 · Explicit": what the feed says, in a listener's words.
    static func facts(of episode: Episode?, file: Enclosure) -> [String] {
        var facts: [String] = []
        if let season = episode?.season { facts.append("Season \(season)") }
        if let number = episode?.number { facts.append("Episode \(number)") }
        if let seconds = episode?.duration ?? file.duration { facts.append(clock(seconds)) }
        if episode?.explicit == true { facts.append("Explicit") }
        return facts
    }

    /// 3723 → "1:02:03", 95 → "1:35".
    static func clock(_ seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds / 60 % 60
        let rest = seconds % 60
        let two = { (value: Int) in value < 10 ? "0\(value)" : String(value) }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}
