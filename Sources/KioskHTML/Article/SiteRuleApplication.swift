import KioskCore
/// A ``SiteRule`` applied to a page's tree.
enum SiteRuleApplication {
    /// Takes every element matching one of `selectors` out of the tree.
    static func drop(_ selectors: [ArticleSelector], from document: inout ArticleDocument) {
        let matched = document.descendants(of: ArticleDocument.root) { !$0.isText }.filter { index in
            selectors.contains { $0.matches(index, in: document) }
        }
        for index in matched { document.remove(index) }
    }

    /// The elements matching one of `selectors`, in page order, leaving out those inside another
    /// match (kept with it already).
    static func kept(_ selectors: [ArticleSelector], in document: ArticleDocument) -> [Int] {
        var kept: [Int] = []
        var keptSet: Set<Int> = []
        for index in document.descendants(of: ArticleDocument.root, where: { !$0.isText }) {
            guard selectors.contains(where: { $0.matches(index, in: document) }) else { continue }
            if document.ancestors(of: index).contains(where: keptSet.contains) { continue }
            kept.append(index)
            keptSet.insert(index)
        }
        return kept
    }
}
