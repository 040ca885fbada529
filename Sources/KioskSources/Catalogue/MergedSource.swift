import KioskCore
import KioskModel

/// A source made of others, shown as one list: every entry of the first part, in feed order,
/// then every entry of the second, and so on.
public struct MergedSource: Sendable, Hashable, Codable {
    public var id: SourceID
    public var name: String
    public var parts: [SourceID]

    public init(id: SourceID, name: String, parts: [SourceID]) {
        self.id = id
        self.name = name
        self.parts = parts
    }

    /// The merged list from the parts' current entries; a part with none yet contributes nothing.
    public func merge(_ entries: [SourceID: [Entry]]) -> [Entry] {
        parts.flatMap { entries[$0] ?? [] }
    }

    /// The event announcing the merged list: the list, and which feed each entry is from.
    public func changed(_ entries: [SourceID: [Entry]]) -> EngineEvent.Kind {
        .changed(id, merge(entries), origins: parts.flatMap { part in Array(repeating: part, count: entries[part]?.count ?? 0) })
    }
}
