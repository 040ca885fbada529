/// A site's appeal to the reader at the end of an article: to follow it ("Follow The Gleaner on
/// Twitter…"), subscribe ("Zapraszamy też do subskrypcji…", "Do you want to be informed…? Sign
/// up here"), become a member ("Hazte miembro"), support it ("If you enjoyed reading this post –
/// would you consider supporting our work?") or get its app. Only among the article's last
/// few short blocks, where a site puts it; the same words earlier are the article's.
enum ReaderAppeal {
    /// How many of the article's last short blocks are looked at.
    static let lastBlocks = 6
    /// Longer than this, a block is the article's text.
    static let longest = 260

    static let tags = ArticleTagSet([.p, .div, .section, .h2, .h3, .h4, .h5, .h6, .blockquote, .center])

    /// Takes such appeals out of the article's tree.
    static func removeTrailing(under nodes: [Int], from document: inout ArticleDocument) {
        var looked = 0
        for node in nodes.reversed() {
            for element in document.elements(under: node).reversed() where tags.contains(element.tag) {
                let index = Int(element.index)
                guard !document.nodes[index].removed else { continue }
                // Bounded first: an empty box is looked into no further than a short block.
                guard document.isSmall(index, characters: longest, nodes: 40) else { return }
                guard document.hasText(index) else { continue }
                if isAppeal(document.normalizedText(of: index)) { document.remove(index) }
                looked += 1
                if looked >= lastBlocks { return }
            }
        }
    }

    /// Whether a line appeals to the reader to follow, subscribe, join or support the site.
    static func isAppeal(_ text: String) -> Bool {
        let lower = LoweredText(text)
        if phraseBytes.contains(where: lower.contains) { return true }
        // "Follow" only with a network to follow on, named as such ("Follow The Gleaner on
        // Twitter", not "Meta will follow Twitter's lead").
        return followBytes.contains(where: lower.contains) && onNetworkBytes.contains(where: lower.contains)
    }

    static let phraseBytes = LoweredText.phrases(phrases)
    static let followBytes = LoweredText.phrases(follows)
    static let onNetworkBytes = LoweredText.phrases(networks.flatMap { [" on \($0)", " auf \($0)", " sur \($0)", " en \($0)", " su \($0)", " na \($0)"] })

    static let phrases = [
        // Subscribing, signing up
        "subscribe to our", "sign up for our", "sign up here", "do you want to be informed", "abonnieren sie unseren",
        "abonniere unseren", "newsletter abonnieren", "abonnez-vous", "inscrivez-vous à notre", "suscríbete",
        "iscriviti alla", "zapraszamy też do subskrypcji", "zapraszamy do subskrypcji", "nichts mehr verpassen",
        "nichts mehr versäumen",
        // Joining, supporting
        "hazte miembro", "werde mitglied", "support our work", "supporting our work",
        "support independent journalism", "unterstützen sie unsere arbeit", "unterstütze unsere arbeit",
        "soutenez notre", "apóyanos", "gefällt dir unser", "gefällt ihnen unser",
        // The site's app
        "straight to your phone", "download our app", "get our app", "laden sie unsere app",
    ]

    static let follows = ["follow ", "folgen sie ", "folge uns", "suivez-nous", "síguenos", "seguici", "obserwuj nas"]
    static let networks = ["twitter", "facebook", "instagram", "tiktok", "linkedin", "whatsapp", "telegram", "youtube", "mastodon"]
}
