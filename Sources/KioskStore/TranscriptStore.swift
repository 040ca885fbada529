import Foundation
import KioskCore
import KioskModel

/// An episode's transcript as words for search, or why there is none: fetched once when the
/// episode arrives, kept with its entry (retention removes it with the entry), and indexed as
/// articles are, so the Reader's search finds an episode by what is said in it.
public struct StoredTranscript: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// The cues' words in order, one space between cues.
        case text(String)
        /// Why there are no words, as a sentence a person can read.
        case failed(String)
    }

    public var outcome: Outcome
    /// When it was fetched (or the fetching began), to the millisecond.
    public var fetchedAt: Date

    public init(_ outcome: Outcome, fetchedAt: Date) {
        self.outcome = outcome
        self.fetchedAt = StoredArticle.toTheMillisecond(fetchedAt)
    }

    /// The words, when they were read.
    public var text: String? {
        if case .text(let text) = outcome { text } else { nil }
    }

    /// Most characters of a transcript kept for search: about three and a half hours of speech
    /// (search judges each candidate's whole text). Past that the text is cut at a space.
    public static let maxCharacters = 200_000

    /// `text` cut to ``maxCharacters`` at the last space before it.
    public static func bounded(_ text: String) -> String {
        guard text.count > maxCharacters else { return text }
        let cut = text.prefix(maxCharacters)
        guard let space = cut.lastIndex(of: " ") else { return String(cut) }
        return String(cut[..<space])
    }
}

/// An episode whose transcript is not kept yet (or failed long enough ago to be tried again).
public struct TranscriptWanted: Sendable, Hashable {
    public var entry: Int64
    public var source: SourceID
    /// The episode's transcripts as its feed lists them.
    public var transcripts: [MediaLink]
    /// The feed's address, which a relative transcript link resolves against.
    public var feedURL: String

    public init(entry: Int64, source: SourceID, transcripts: [MediaLink], feedURL: String) {
        self.entry = entry
        self.source = source
        self.transcripts = transcripts
        self.feedURL = feedURL
    }
}

/// Where episodes' transcripts are kept for search, by entry (`StoredEntry.id`).
public protocol TranscriptStore: Sendable {
    /// Up to `limit` entries still in a followed feed (`source`'s only, when given) that list a
    /// transcript and have none kept, or only a failure from before `retryBefore`; newest first.
    func entriesWithoutTranscripts(of source: SourceID?, retryBefore: Date, limit: Int) async throws -> [TranscriptWanted]
    /// Takes the fetching of `entry`'s transcript (a row saying so, dated `now`): true when the
    /// caller may fetch it; false when another (a replica sharing the database) has kept it or
    /// is fetching it, or the entry is gone. A fetch that never ended is a failure dated `now`,
    /// tried again after `retryBefore` passes it.
    func claimTranscript(entry: Int64, now: Date, retryBefore: Date) async throws -> Bool
    /// Keeps `transcript` for `entry`, replacing what was kept; an entry that no longer exists
    /// keeps nothing.
    func saveTranscript(_ transcript: StoredTranscript, entry: Int64) async throws
    /// What is kept for `entry`: its words, or why there are none (the claim's own sentence
    /// while it is being fetched); nil when nothing is.
    func transcript(entry: Int64) async throws -> StoredTranscript?
    /// The transcripts' words kept for `entries` (none for a failure), by entry.
    func transcriptTexts(entries: [Int64]) async throws -> [Int64: String]
}

/// How both stores write and read a transcript's row.
package enum TranscriptColumns {
    /// The sentence of a transcript being fetched: what a fetch that never ended leaves.
    package static let fetching = "the transcript was being fetched"

    package static func text(of transcript: StoredTranscript) -> String { transcript.text ?? "" }

    package static func error(of transcript: StoredTranscript) -> String? {
        if case .failed(let reason) = transcript.outcome { reason } else { nil }
    }

    /// A stored row back as a value.
    package static func read(text: String, error: String?, fetchedAt: Double) -> StoredTranscript {
        StoredTranscript(error.map { .failed($0) } ?? .text(text), fetchedAt: Date(timeIntervalSince1970: fetchedAt))
    }

    /// Which transcripts a row lists, from the entry's stored JSON: nil when it lists none.
    package static func transcripts(inEntryJSON json: String) -> [MediaLink]? {
        guard let entry = try? JSONDecoder().decode(Entry.self, from: Data(json.utf8)),
            let links = entry.episode?.transcripts, !links.isEmpty
        else { return nil }
        return links
    }

    /// The SQL condition on an entry's JSON column that keeps only entries listing a transcript
    /// (a cheap filter before the JSON is decoded).
    package static func condition(column: String) -> String {
        "\(column) LIKE '%\"transcripts\":[{%'"
    }
}
