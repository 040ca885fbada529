/// An entry with every text field folded for matching, for testing many queries (a user's
/// rules) against one entry: each field is folded once, not once per query.
public struct FoldedDocument: Sendable {
    public private(set) var document: QueryDocument
    let fields: [QueryField: [FoldedText]]

    public init(_ document: QueryDocument) {
        self.document = document
        var folder = QueryTextFolder()
        var fields: [QueryField: [FoldedText]] = [:]
        for field in QueryField.allCases {
            fields[field] = document.values(of: field).map { FoldedText($0, folder: &folder) }
        }
        self.fields = fields
    }

    /// The same entry read or starred as given (a rule acting on it before the next one runs);
    /// its text stays folded.
    public func with(isRead: Bool, isStarred: Bool) -> FoldedDocument {
        var copy = self
        copy.document.isRead = isRead
        copy.document.isStarred = isStarred
        return copy
    }
}
