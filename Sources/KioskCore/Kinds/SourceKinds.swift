/// The kinds of source a Kiosk knows, by id.
public struct SourceKinds: Sendable {
    public let all: [SourceKind]
    private let byID: [SourceKind.ID: SourceKind]

    /// `kinds`; of two with one id, the later replaces the earlier (in its place).
    public init(_ kinds: [SourceKind]) {
        var byID: [SourceKind.ID: SourceKind] = [:]
        var order: [SourceKind.ID] = []
        for kind in kinds {
            if byID[kind.id] == nil { order.append(kind.id) }
            byID[kind.id] = kind
        }
        self.all = order.compactMap { byID[$0] }
        self.byID = byID
    }

    public subscript(id: SourceKind.ID) -> SourceKind? { byID[id] }

    /// These kinds and `kind` (a test's own, say), replacing one of the same id.
    public func adding(_ kind: SourceKind) -> SourceKinds { SourceKinds(all + [kind]) }

    /// Every kind Kiosk knows. A new kind: its folder under `Kinds/`, and one line here.
    public static let builtIn = SourceKinds([
        .feed,
    ])
}
