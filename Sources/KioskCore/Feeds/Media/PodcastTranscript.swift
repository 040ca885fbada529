import Foundation

/// One timed line of an episode's transcript.
public struct TranscriptCue: Sendable, Hashable, Codable {
    /// Seconds from the start of the episode.
    public var start: Double
    public var end: Double
    /// Plain text (a WebVTT cue's tags and voice spans read for their words).
    public var text: String

    public init(start: Double, end: Double, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// What can be wrong with a transcript file.
public enum TranscriptError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(limit: Int)
    case unreadable(String)

    public var description: String {
        switch self {
        case .tooLarge(let limit): "the transcript is larger than \(limit / 1024 / 1024) MB"
        case .unreadable(let why): why
        }
    }
}

/// Podcasting 2.0's timed transcripts: WebVTT, SubRip (SRT) and the JSON format
/// (`{"segments": [{"startTime", "endTime", "body"}]}`), read into cues in order, at most
/// ``maxCues`` of them, each line's text plain and bounded. Untimed formats (plain text, HTML)
/// are not read: a transcript that cannot follow playback is only a link.
public enum PodcastTranscript {
    public static let maxBytes = 2 * 1024 * 1024
    public static let maxCues = 20_000
    static let maxText = 1_000

    public enum Format: Sendable, Hashable {
        case webVTT, subRip, json

        /// The format a `podcast:transcript`'s type names, or nil for one this does not read.
        public init?(type: String?) {
            switch type?.lowercased().split(separator: ";").first?.trimmingCharacters(in: .whitespaces) {
            case "text/vtt": self = .webVTT
            case "application/srt", "application/x-subrip", "text/srt", "text/x-srt": self = .subRip
            case "application/json": self = .json
            default: return nil
            }
        }
    }

    /// The transcript a player follows and search reads, of an episode's `transcripts`: the
    /// first timed one marked as captions, else the first timed one; nil when none is timed.
    public static func timed(in transcripts: [MediaLink]) -> (link: MediaLink, format: Format)? {
        let timed = transcripts.compactMap { link in Format(type: link.type).map { (link: link, format: $0) } }
        return timed.first { $0.link.rel == "captions" } ?? timed.first
    }

    public static func parse(_ bytes: [UInt8], format: Format) throws(TranscriptError) -> [TranscriptCue] {
        guard bytes.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        let cues: [TranscriptCue]
        switch format {
        case .json: cues = try json(bytes)
        case .webVTT, .subRip: cues = try timedText(String(decoding: bytes, as: UTF8.self), format: format)
        }
        return cues.sorted { $0.start < $1.start }
    }

    // MARK: - WebVTT and SRT: blocks of lines, one of them `start --> end`

    private static func timedText(_ text: String, format: Format) throws(TranscriptError) -> [TranscriptCue] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        if format == .webVTT, !(lines.first?.trimmingCharacters(in: .whitespaces).hasPrefix("WEBVTT") ?? false)
            && !(lines.first?.hasPrefix("\u{FEFF}WEBVTT") ?? false)
        {
            throw .unreadable("the transcript is not WebVTT")
        }
        var cues: [TranscriptCue] = []
        var index = 0
        while index < lines.count, cues.count < maxCues {
            let line = lines[index]
            index += 1
            guard line.contains("-->"), let (start, end) = timing(line) else { continue }
            var words: [String] = []
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                words.append(plain(lines[index]))
                index += 1
            }
            let joined = words.joined(separator: " ").trimmingCharacters(in: .whitespaces)
            if !joined.isEmpty { cues.append(TranscriptCue(start: start, end: end, text: String(joined.prefix(maxText)))) }
        }
        if cues.isEmpty { throw .unreadable("the transcript has no timed lines") }
        return cues
    }

    /// `00:00:03.500 --> 00:00:06.000 align:start` (WebVTT) or `00:00:03,500 --> 00:00:06,000` (SRT).
    private static func timing(_ line: Substring) -> (Double, Double)? {
        let parts = line.components(separatedBy: "-->")
        guard parts.count == 2,
            let start = seconds(parts[0].trimmingCharacters(in: .whitespaces)),
            let endText = parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first,
            let end = seconds(String(endText)), end >= start
        else { return nil }
        return (start, end)
    }

    /// `hh:mm:ss.ttt`, `mm:ss.ttt`, with `.` or `,` before the milliseconds.
    static func seconds(_ text: String) -> Double? {
        let parts = text.replacingOccurrences(of: ",", with: ".").split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var values: [Double] = []
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            guard !part.isEmpty, part.count <= (isLast ? 12 : 6),
                part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                let value = Double(part), value.isFinite
            else { return nil }
            if position > 0, value >= 60 { return nil }
            values.append(value)
        }
        // Doubles of at most 12 characters each: no overflow, no trap.
        return values.reduce(0) { $0 * 60 + $1 }
    }

    /// A cue's line as words: tags (`<v Ann>`, `<i>`, `<00:01.000>`) out, the few entities WebVTT
    /// allows decoded.
    private static func plain(_ line: Substring) -> String {
        var out = ""
        var inTag = false
        for character in line {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                out.append(character)
            }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", " "), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: character)
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    // MARK: - JSON

    private struct JSONFile: Decodable {
        struct Segment: Decodable {
            var startTime: Double?
            var endTime: Double?
            var body: String?
        }
        var segments: [Segment]
    }

    private static func json(_ bytes: [UInt8]) throws(TranscriptError) -> [TranscriptCue] {
        let file: JSONFile
        do {
            file = try JSONDecoder().decode(JSONFile.self, from: Data(bytes))
        } catch {
            throw .unreadable("the transcript is not Podcasting 2.0 JSON")
        }
        var cues: [TranscriptCue] = []
        for segment in file.segments {
            guard let start = segment.startTime, start.isFinite, start >= 0,
                let text = segment.body?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
            else { continue }
            let end = segment.endTime.flatMap { $0.isFinite && $0 >= start ? $0 : nil } ?? start
            cues.append(TranscriptCue(start: start, end: end, text: String(text.prefix(maxText))))
            if cues.count == maxCues { break }
        }
        if cues.isEmpty { throw .unreadable("the transcript has no timed lines") }
        return cues
    }
}
