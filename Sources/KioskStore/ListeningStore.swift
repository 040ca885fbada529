import Foundation
import KioskModel

/// Where a user stopped in an episode: the same on every device they sign in on.
public struct PlaybackPosition: Sendable, Hashable {
    public var entryID: Int64
    /// Seconds into the file.
    public var seconds: Double
    /// The file's length in seconds, as the player that saved it measured it; nil when unknown.
    public var duration: Double?
    /// Whether the episode was playing when this was saved (else it was paused there).
    public var isPlaying: Bool
    /// Played to its last seconds or marked played: it counts as read and leaves "Listen".
    public var isFinished: Bool
    /// The device's name for people ("iPhone", "Firefox on Linux").
    public var device: String
    public var savedAt: Date

    public init(
        entryID: Int64, seconds: Double, duration: Double?, isPlaying: Bool, isFinished: Bool, device: String,
        savedAt: Date
    ) {
        self.entryID = entryID
        self.seconds = seconds
        self.duration = duration
        self.isPlaying = isPlaying
        self.isFinished = isFinished
        self.device = device
        self.savedAt = savedAt
    }

    /// Seconds still to play, when the length is known.
    public var remaining: Double? { duration.map { max(0, $0 - seconds) } }
}

/// Each user's place in the episodes they play, kept with the entry (and removed with it).
public protocol ListeningStore: Sendable {
    /// Keeps `position` for its entry, replacing the one before unless that one was saved later
    /// (a place sent late, from a device that was offline, leaves a newer one alone); false when
    /// the entry is not in a feed the user follows (nothing is kept).
    func savePosition(_ position: PlaybackPosition, user: UserID) async throws -> Bool
    /// The user's positions in `ids` (entries never played are absent).
    func positions(ids: [Int64], user: UserID) async throws -> [Int64: PlaybackPosition]
    /// Episodes begun and not finished, the latest saved first, at most `limit`.
    func positionsInProgress(limit: Int, user: UserID) async throws -> [PlaybackPosition]
    /// Whether any of the `latest` entries received of the feeds the user follows has a file
    /// (`EntryFiles`): a bounded look, for a page drawn often.
    func hasFiles(amongLatest latest: Int, user: UserID) async throws -> Bool
}

/// Which rows may hold something to play, said once for both databases: an entry's stored JSON
/// (`EntryJSON`, keys unescaped, so a quote inside a string can never look like one) lists at
/// least one enclosure or Media RSS file. A filter before the real test (`Entry.playableMedia`),
/// which knows an image from an episode.
public enum EntryFiles {
    public static func condition(column: String) -> String {
        "(\(column) LIKE '%\"enclosures\":[{%' OR \(column) LIKE '%\"media\":[{%')"
    }
}
