import Foundation
import KioskCore
import KioskModel
import KioskStore

/// Each account's place in its episodes: saved from any device, checked first (a player is a
/// client like any other), announced to the account's other pages, and an episode played to its
/// last seconds (or marked played) marked read.
public struct EpisodePlaces: Sendable {
    /// An episode this close to its end counts as played (a tenth of it when that is less, so
    /// a short clip is not finished as soon as it starts).
    public static let finishedWithin: Double = 30
    /// No file plays longer (about 11.5 days): a larger figure is a broken or hostile client's.
    static let longest: Double = 1_000_000
    static let deviceLength = 40
    /// How far back "Listen" is looked for on the reader's home (entries received, newest first).
    static let filesLookBack = 500
    static let clientLength = 40

    private let store: any ListeningStore & ReadingStore
    private let reader: Reader
    private let publish: @Sendable (ReaderChange) async -> Void
    private let now: @Sendable () -> Date

    public init(
        store: any ListeningStore & ReadingStore, reader: Reader, now: @escaping @Sendable () -> Date = { Date() },
        publish: @escaping @Sendable (ReaderChange) async -> Void
    ) {
        self.store = store
        self.reader = reader
        self.now = now
        self.publish = publish
    }

    /// What a player sends: where it is in `entryID`'s file and whether it plays; `device` names
    /// the device for people ("Safari on iPhone"), `client` tells one open page from another (so a
    /// page knows its own saves). Returns what was kept; refused with a sentence when a figure
    /// cannot be a place in a file, and `.unknownFeed`-like when the entry is not the user's.
    @discardableResult
    /// `at`: when the player took the place, for one sent late (queued offline); a newer place
    /// kept meanwhile stays, and is what this answers. Nil (and anything in the future or older
    /// than a week) is now.
    public func save(
        entryID: Int64, seconds: Double, duration: Double?, playing: Bool, finished: Bool, device: String, client: String,
        at taken: Date? = nil, user: UserID
    ) async throws(ReaderError) -> PlaybackPosition {
        guard seconds.isFinite, seconds >= 0, seconds <= Self.longest else {
            throw .refused("A place in an episode is a number of seconds from its start.")
        }
        var length: Double?
        if let duration {
            guard duration.isFinite, duration > 0, duration <= Self.longest else {
                throw .refused("An episode's length is a number of seconds.")
            }
            length = duration
        }
        let at = length.map { min(seconds, $0) } ?? seconds
        let done = finished || length.map { $0 - at <= min(Self.finishedWithin, $0 / 10) } ?? false
        let position = PlaybackPosition(
            entryID: entryID, seconds: at, duration: length, isPlaying: playing && !done, isFinished: done,
            device: Self.deviceName(device), savedAt: Self.time(taken, now: now()))
        let stored: PlaybackPosition?
        do {
            guard try await store.savePosition(position, user: user) else {
                throw ReaderError.refused("That episode is not in any of your feeds.")
            }
            stored = try await store.positions(ids: [entryID], user: user)[entryID]
        } catch let error as ReaderError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
        // A newer place was kept (this one was sent late): nothing changed. (Times come back from
        // the database as seconds since 1970, a hair off the `Date` sent.)
        if let stored, stored.savedAt.timeIntervalSince(position.savedAt) > 0.001 { return stored }
        if done { try await reader.setRead(true, ids: [entryID], user: user) }
        await publish(.position(user: user, position: position, client: Self.clientID(client)))
        return position
    }

    /// Whether "Listen" is worth listing: an episode begun, or a file among the latest entries
    /// (an image enclosure counts too: a bounded guess, cheaper than reading each entry).
    public func hasEpisodes(user: UserID) async throws(ReaderError) -> Bool {
        do {
            if try await !store.positionsInProgress(limit: 1, user: user).isEmpty { return true }
            // The latest entries only: the home page is drawn often, and an account without
            // podcasts would have every entry's JSON read.
            return try await store.hasFiles(amongLatest: Self.filesLookBack, user: user)
        } catch {
            throw .storage("\(error)")
        }
    }

    /// The entry `key` of `source`, as the account sees it; nil when there is none.
    public func entry(source: SourceID, key: String, user: UserID) async throws(ReaderError) -> StoredEntry? {
        do { return try await store.storedEntry(source: source, key: key, user: user) } catch {
            throw .storage("\(error)")
        }
    }

    /// The account's places in these entries.
    public func positions(ids: [Int64], user: UserID) async throws(ReaderError) -> [Int64: PlaybackPosition] {
        do { return try await store.positions(ids: ids, user: user) } catch { throw .storage("\(error)") }
    }

    /// Episodes begun and not finished, the latest first.
    public func inProgress(limit: Int, user: UserID) async throws(ReaderError) -> [PlaybackPosition] {
        do { return try await store.positionsInProgress(limit: limit, user: user) } catch { throw .storage("\(error)") }
    }

    /// When a place was taken: the player's word for a late one, within the last week, else now.
    static func time(_ at: Date?, now: Date) -> Date {
        guard let at, at <= now, now.timeIntervalSince(at) <= 7 * 86_400 else { return now }
        return at
    }

    /// An episode of "Listen": the entry, where the user is in it (nil: never played).
    public struct Item: Sendable {
        public var entry: StoredEntry
        public var position: PlaybackPosition?

        /// The file's length: as a player measured it, else as the feed says.
        public var duration: Double? {
            position?.duration ?? (entry.entry.episode?.duration ?? entry.entry.playableMedia?.duration).map(Double.init)
        }
    }

    /// A feed's newest episodes not played to the end (nor marked played), with a file a player
    /// can play: what a device keeps for offline ("Keep the next 3 unplayed"), newest first.
    /// Opening an episode reads it but does not play it, so a read one is still kept.
    public func unplayed(of source: SourceID, user: UserID, limit: Int = 3) async throws(ReaderError) -> [StoredEntry] {
        do {
            let recent = try await store.readingList(
                EntryFilter(sources: [source], withFiles: true, limit: limit * 4), user: user
            ).filter { $0.entry.playableMedia != nil }
            let places = try await store.positions(ids: recent.map(\.id), user: user)
            return Array(recent.filter { places[$0.id]?.isFinished != true }.prefix(limit))
        } catch let error as ReaderError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    /// "Listen": the episodes begun and not finished, and the unread ones never played, newest
    /// first, at most `limit` of each.
    public func listen(user: UserID, limit: Int = 100) async throws(ReaderError) -> [Item] {
        do {
            let begun = try await store.positionsInProgress(limit: limit, user: user)
            let places = Dictionary(begun.map { ($0.entryID, $0) }, uniquingKeysWith: { first, _ in first })
            let started = try await store.storedEntries(ids: begun.map(\.entryID), user: user)
            let unread = try await store.readingList(
                EntryFilter(unreadOnly: true, withFiles: true, limit: limit * 2), user: user
            ).filter { places[$0.id] == nil && $0.entry.playableMedia != nil }
            let touched = try await store.positions(ids: unread.map(\.id), user: user)
            let unplayed = unread.filter { touched[$0.id] == nil }.prefix(limit)
            let items =
                started.filter { !$0.isHidden && $0.entry.playableMedia != nil }.map { Item(entry: $0, position: places[$0.id]) }
                + unplayed.map { Item(entry: $0, position: nil) }
            return items.sorted { ($0.entry.sortDate, $0.entry.id) > ($1.entry.sortDate, $1.entry.id) }
        } catch let error as ReaderError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    /// A device's name as shown to people: one line, no control or format characters, at most
    /// `deviceLength` characters; "another device" when nothing is left.
    static func deviceName(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: " "
            default: Character(scalar)
            }
        }
        let words = String(kept).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.isEmpty ? "another device" : String(words.prefix(deviceLength))
    }

    /// A page's own id: letters, digits and dashes, at most `clientLength`; "" otherwise.
    static func clientID(_ text: String) -> String {
        guard text.count <= clientLength,
            text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") })
        else { return "" }
        return text
    }
}
