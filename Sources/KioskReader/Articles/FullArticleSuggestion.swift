import KioskCore

/// Whether a feed's entries are summaries of their articles, judged on the articles Kiosk has
/// kept for it: when, in the middle of a sample, a summary holds under a fifth of its article's
/// words, "Show full articles" is worth suggesting.
public struct FullArticleSuggestion: Sendable, Hashable {
    /// The median share of the article's words a summary holds, 0...1.
    public var share: Double

    /// At least this many kept articles before anything is suggested.
    public static let minimumSample = 3
    /// Summaries holding less than this share of their articles are summaries.
    public static let threshold = 0.2

    /// The suggestion for a sample of (summary words, article words), or nil when the sample is
    /// too small or the summaries are the articles.
    public init?(sample: [(summaryWords: Int, articleWords: Int)]) {
        let shares = sample.filter { $0.articleWords > 0 }
            .map { min(1, Double($0.summaryWords) / Double($0.articleWords)) }.sorted()
        guard shares.count >= Self.minimumSample else { return nil }
        let middle = shares.count / 2
        let median = shares.count % 2 == 1 ? shares[middle] : (shares[middle - 1] + shares[middle]) / 2
        guard median < Self.threshold else { return nil }
        share = median
    }

    /// What the feed's settings say.
    public var sentence: String {
        let percent = max(1, Int((share * 100).rounded()))
        return "This feed's entries hold about \(percent)% of their articles' words. Show full articles to read the rest here."
    }

    /// The words of an entry's summary (HTML), as the suggestion counts them.
    public static func words(ofSummary html: String?) -> Int {
        guard let html else { return 0 }
        return HTMLText.plainText(fromHTML: html).split(whereSeparator: \.isWhitespace).count
    }
}
