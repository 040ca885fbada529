/// A live list as rendered once for pages and the event stream: each row by its key, and the
/// whole list, so pages insert it as is and changes are sent as the rows that differ.
public struct RenderedList: Sendable, Hashable {
    /// One row (`<li data-key=…>`), rendered.
    public struct Row: Sendable, Hashable {
        public let key: String
        public let html: RenderedHTML
    }

    public let rows: [Row]
    /// Every row, in order.
    public let html: RenderedHTML

    /// Renders each `(key, node)` once. Keys are unique within a list (a repeated key keeps its
    /// first row: the page could not tell two rows with one key apart).
    public init(_ items: [(key: String, node: Node)]) {
        var seen: Set<String> = []
        var rows: [Row] = []
        for item in items where seen.insert(item.key).inserted {
            rows.append(Row(key: item.key, html: RenderedHTML([item.node])))
        }
        self.rows = rows
        html = RenderedHTML(joining: rows.map(\.html))
    }

    /// What turns `previous` into this list: its order of keys, the rows that are new or differ,
    /// and the keys no longer shown. `previous` nil (nothing shown yet) gives every row.
    func diff(from previous: RenderedList?) -> ListDiff {
        let before = Dictionary((previous?.rows ?? []).map { ($0.key, $0.html) }, uniquingKeysWith: { first, _ in first })
        var rows: [String: String] = [:]
        for row in self.rows where before[row.key] != row.html { rows[row.key] = row.html.markup }
        let kept = Set(self.rows.map(\.key))
        return ListDiff(
            order: self.rows.map(\.key), rows: rows,
            removed: (previous?.rows ?? []).map(\.key).filter { !kept.contains($0) })
    }
}

/// A change of a live list as sent to pages (`changed` events): the page keeps the rows it has
/// whose keys are in `order` and not in `rows`, puts in `rows`' new markup, drops `removed`, and
/// arranges them as `order` says. A page missing a row it should keep redraws the list.
struct ListDiff: Encodable, Equatable, Sendable {
    /// Every key of the new list, in order.
    var order: [String]
    /// The markup of rows added or changed, by key.
    var rows: [String: String]
    /// Keys of rows no longer in the list.
    var removed: [String]
}
