import Foundation
import KioskCore

/// What to keep and drop on one site's pages, so a page the heuristics get wrong is fixed with
/// data rather than code (Miniflux's scraper rules, Readability's site configurations).
public struct SiteRule: Sendable, Hashable {
    /// The article is these elements (in page order), when any is on the page; the heuristics
    /// decide otherwise.
    public var keep: [ArticleSelector]
    /// Removed before anything else: share bars, "read more" boxes, a newsletter in the story.
    public var drop: [ArticleSelector]

    public init(keep: [ArticleSelector] = [], drop: [ArticleSelector] = []) {
        self.keep = keep
        self.drop = drop
    }
}

/// Site rules by host, read from a JSON file at start:
///
/// ```json
/// {
///   "example.com": { "keep": ["article .story-body"], "drop": [".share", "aside.related"] },
///   "news.example.org": { "drop": ["#newsletter"] }
/// }
/// ```
///
/// A rule for `example.com` also applies to `www.example.com` and `news.example.com`; the most
/// specific host wins.
public struct SiteRules: Sendable, Equatable {
    public private(set) var rules: [String: SiteRule]

    public init(_ rules: [String: SiteRule] = [:]) {
        self.rules = Dictionary(rules.map { (Self.normalized($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The largest file read.
    public static let maxBytes = 1 << 20

    /// Reads rules from a file's bytes; throws with what is wrong and where.
    public init(json bytes: [UInt8]) throws(SiteRulesError) {
        guard bytes.count <= Self.maxBytes else { throw SiteRulesError("it is larger than 1 MB") }
        struct Raw: Decodable {
            var keep: [String]?
            var drop: [String]?
        }
        let raw: [String: Raw]
        do {
            raw = try JSONDecoder().decode([String: Raw].self, from: Data(bytes))
        } catch {
            throw SiteRulesError(
                "it is not an object of host names, each with \"keep\" and/or \"drop\" lists of selectors")
        }
        var rules: [String: SiteRule] = [:]
        for (host, rule) in raw {
            let name = Self.normalized(host)
            guard !name.isEmpty, !name.contains("/"), !name.contains(" ") else {
                throw SiteRulesError("“\(host)” is not a host name")
            }
            do throws(ArticleSelectorError) {
                rules[name] = SiteRule(
                    keep: try (rule.keep ?? []).map { text throws(ArticleSelectorError) in try ArticleSelector(text) },
                    drop: try (rule.drop ?? []).map { text throws(ArticleSelectorError) in try ArticleSelector(text) })
            } catch {
                throw SiteRulesError("for \(name), \(error)")
            }
        }
        self.rules = rules
    }

    /// The rule for a page at `url`, if any.
    public func rule(for url: URL) -> SiteRule? {
        guard !rules.isEmpty, let host = url.host else { return nil }
        var name = Self.normalized(host)
        // An address is matched whole: `0.0.1` is no parent of `127.0.0.1`.
        if name.contains(":") || name.allSatisfy({ $0 == "." || $0.isNumber }) { return rules[name] }
        while true {
            if let rule = rules[name] { return rule }
            guard let dot = name.firstIndex(of: ".") else { return nil }
            name = String(name[name.index(after: dot)...])
            guard name.contains(".") else { return nil }
        }
    }

    private static func normalized(_ host: String) -> String {
        var name = host.lowercased().trimmingCharacters(in: .whitespaces)
        while name.hasSuffix(".") { name.removeLast() }
        if name.hasPrefix("www.") { name.removeFirst(4) }
        return name
    }
}

/// Site rules that cannot be read, said plainly.
public struct SiteRulesError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "the site rules cannot be used: \(reason)" }
}
