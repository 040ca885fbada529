/// An entry with every text field folded for matching, for testing many queries (a user's
/// rules) against one entry: each field is folded once, not once per query.
public struct FoldedDocument: Sendable {
    public private(set) var document: QueryDocument
    private(set) var fields: [QueryField: [FoldedText]]

    public init(_ document: QueryDocument) {
        self.document = document
        var folder = QueryTextFolder()
        var fields: [QueryField: [FoldedText]] = [:]
        for field in QueryField.allCases {
            fields[field] = document.values(of: field).map { FoldedText($0, folder: &folder) }
        }
        self.fields = fields
    }

    /// The same entry as one follower filed its feed (the feed's name and folders folded anew,
    /// the rest as it was): an entry's text is folded once for all who follow its feed.
    public func with(feed: String, folders: [String]) -> FoldedDocument {
        var copy = self
        copy.document.feed = feed
        copy.document.folders = folders
        var folder = QueryTextFolder()
        copy.fields[.feed] = [FoldedText(feed, folder: &folder)]
        copy.fields[.folder] = folders.map { FoldedText($0, folder: &folder) }
        return copy
    }

    /// The same entry read or starred as given (a rule acting on it before the next one runs);
    /// its text stays folded.
    public func with(isRead: Bool, isStarred: Bool) -> FoldedDocument {
        var copy = self
        copy.document.isRead = isRead
        copy.document.isStarred = isStarred
        return copy
    }

    /// The same entry hidden (a rule hiding it before the next one runs).
    public func with(isHidden: Bool) -> FoldedDocument {
        var copy = self
        copy.document.isHidden = isHidden
        return copy
    }

    /// The same entry with these labels (a rule labelling it before the next one runs).
    public func with(labels: [String]) -> FoldedDocument {
        var copy = self
        copy.document.labels = labels
        var folder = QueryTextFolder()
        copy.fields[.label] = labels.map { FoldedText($0, folder: &folder) }
        return copy
    }
}
