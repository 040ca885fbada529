/// The kinds of source a Kiosk knows, by id.
public struct SourceKinds: Sendable {
    public let all: [SourceKind]
    private let byID: [SourceKind.ID: SourceKind]

    /// `kinds`, the first of each id winning.
    public init(_ kinds: [SourceKind]) {
        var byID: [SourceKind.ID: SourceKind] = [:]
        var all: [SourceKind] = []
        for kind in kinds where byID[kind.id] == nil {
            byID[kind.id] = kind
            all.append(kind)
        }
        self.all = all
        self.byID = byID
    }

    public subscript(id: SourceKind.ID) -> SourceKind? { byID[id] }

    /// These kinds and `kind` (a test's own, say).
    public func adding(_ kind: SourceKind) -> SourceKinds { SourceKinds(all + [kind]) }

    /// Every kind Kiosk knows. A new kind: its folder under `Kinds/`, and one line here.
    public static let builtIn = SourceKinds([
        .feed,
    ])
}
