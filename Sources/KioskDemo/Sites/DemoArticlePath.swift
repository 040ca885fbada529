import Foundation

/// Where the article page behind a sample feed's item lives on the demo server:
/// `/sites/articles/<source>/c<index>` for a captured item, `/sites/articles/<source>/<run>-<ordinal>`
/// for an added one.
enum DemoArticlePath: Sendable, Hashable {
    case captured(source: DemoSource, index: Int)
    case added(source: DemoSource, run: String, ordinal: Int)

    static let prefix = "/sites/articles/"

    var source: DemoSource {
        switch self {
        case .captured(let source, _), .added(let source, _, _): source
        }
    }

    /// The last segment of the path.
    var component: String {
        switch self {
        case .captured(_, let index): "c\(index)"
        case .added(_, let run, let ordinal): "\(run)-\(ordinal)"
        }
    }

    var path: String { Self.prefix + source.rawValue + "/" + component }

    /// The page's absolute address on the server at `base`.
    func url(base: URL) -> String {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text + path
    }

    /// The article page a request path names, or nil.
    init?(path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        let parts = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let source = DemoSource(rawValue: String(parts[0])), source.isFeed else { return nil }
        let last = parts[1]
        if last.first == "c", let index = Int(last.dropFirst()), index >= 0 {
            self = .captured(source: source, index: index)
        } else if let dash = last.lastIndex(of: "-"), let ordinal = Int(last[last.index(after: dash)...]), ordinal > 0 {
            let run = last[..<dash]
            guard !run.isEmpty, run.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
            self = .added(source: source, run: String(run), ordinal: ordinal)
        } else {
            return nil
        }
    }
}
