/// One thing every match of a search must hold, as a full-text index can look for it: a word
/// (its last token a prefix), a phrase (its words side by side), either in the title only
/// (`intitle:`) or anywhere. A store narrows by what its index can check and leaves the rest to
/// the query's own judgement, so what it hands over is never fewer than the matches.
public struct SearchTerm: Sendable, Hashable {
    public var words: [String]
    /// The words side by side, in order ("exact phrase").
    public var isPhrase: Bool
    /// In the title only.
    public var inTitle: Bool

    public init(words: [String], isPhrase: Bool = false, inTitle: Bool = false) {
        self.words = words
        self.isPhrase = isPhrase
        self.inTitle = inTitle
    }
}
