import Foundation
import KioskModel

/// A label a user put on entries (by hand or by a rule), with how many carry it.
public struct LabelCount: Sendable, Hashable {
    public var name: String
    public var unread: Int
    public var total: Int

    public init(name: String, unread: Int, total: Int) {
        self.name = name
        self.unread = unread
        self.total = total
    }
}

/// Labels on entries, each user's own. A label exists while an entry carries it; each is a
/// reading list (`EntryFilter.label`, `ItemQuery.label`) with its own count. A labelled entry
/// is kept like a starred one.
public protocol LabelStore: Sendable {
    /// `user`'s labels, by name, with their unread and total counts.
    func labelCounts(user: UserID) async throws -> [LabelCount]
    /// Puts `label` on (or takes it off) entries the user may see; returns the ids that changed.
    func setLabel(_ label: String, _ on: Bool, ids: [Int64], user: UserID) async throws -> [Int64]
    /// The labels `user` put on each of `ids` (entries with none are absent), each list by name.
    func entryLabels(ids: [Int64], user: UserID) async throws -> [Int64: [String]]
}

/// What a label's name may be, the same wherever one is typed: its words (runs of white space
/// made one space), at most `maxLength` characters, no control characters.
public enum LabelName {
    public static let maxLength = 40

    /// `raw` as a label's name; nil when it is empty, too long or has a control character.
    public static func normalized(_ raw: String) -> String? {
        let name = raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !name.isEmpty, name.count <= maxLength,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return name
    }
}
