/// A box around a form to fill in with little else: a newsletter's sign-up ("Missing out on the
/// latest …? Enter your email below"), a comment form and its heading ("Kommentare schreiben"),
/// a log-in prompt. Its words are the site's, in any language, so it is known by its shape: a
/// form with a field to type in, holding little text, and the boxes around it that add no more
/// than a heading or a sentence.
enum SignUpBox {
    /// Most text a form, or a box around it, may hold.
    static let longest = 400
    /// Most text a box may add around what it holds (a heading, a line of explanation).
    static let added = 150

    /// The boxes to take out of the page: for each form with a field to type in, the largest
    /// box around it that is still only the form and a few words. A page wrapped whole in one
    /// form (ASP.NET's) holds far more text and stays.
    static func boxes(in document: ArticleDocument, stats: ArticleStats) -> [Int] {
        var boxes: [Int] = []
        for index in document.nodes.indices where document.nodes[index].tag == .form {
            guard !document.nodes[index].removed, Int(stats[index].text) <= longest, hasTypingField(index, in: document) else {
                continue
            }
            var box = index
            while case let parent = document.nodes[box].parent, parent > ArticleDocument.root,
                !stopsAt.contains(document.nodes[parent].tag),
                Int(stats[parent].text) <= longest, Int(stats[parent].text) - Int(stats[box].text) <= added
            {
                box = parent
            }
            boxes.append(box)
        }
        return boxes
    }

    /// Never climbed into: the page itself, and an article's own element.
    static let stopsAt = ArticleTagSet([.body, .html, .article, .main])

    /// Whether the form has a field to type a name, an address or a comment into (not only
    /// buttons, hidden fields, boxes to tick or a menu), looking at its first few dozen nodes.
    static func hasTypingField(_ form: Int, in document: ArticleDocument) -> Bool {
        var pending = [form]
        var visited = 0
        while let next = pending.popLast() {
            visited += 1
            if visited > 200 { return false }
            let node = document.nodes[next]
            switch node.tag {
            case .textarea: return true
            case .input:
                let type = (node.value(of: "type") ?? "text").lowercased()
                if typing.contains(type) { return true }
            case .text: continue
            default: pending.append(contentsOf: node.children)
            }
        }
        return false
    }

    static let typing: Set<String> = ["text", "email", "", "tel", "url", "password"]
}
