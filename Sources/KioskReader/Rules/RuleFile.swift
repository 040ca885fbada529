import Foundation
import KioskModel
import KioskStore

/// Rules as a JSON file, to move them to another Kiosk beside the OPML of the feeds. A rule of
/// one feed names the feed by its address (ids differ between installations), so it finds the
/// same feed once that OPML is imported.
///
/// ```json
/// {"kiosk": "rules", "version": 1, "rules": [
///   {"name": "Storms", "query": "intitle:storm", "scope": {"kind": "all"}, "actions": ["star"], "label": "Alerts",
///    "paused": false}
/// ]}
/// ```
public struct RuleFile: Codable, Sendable, Hashable {
    public var kiosk = "rules"
    public var version = 1
    public var rules: [Item]

    public struct Item: Codable, Sendable, Hashable {
        public var name: String
        public var query: String
        public var scope: Scope
        public var actions: [String]
        /// The label the rule puts on (absent: none).
        public var label: String?
        public var paused: Bool
    }

    public struct Scope: Codable, Sendable, Hashable {
        /// `all`, `folder` (with `folder`) or `feed` (with `feedURL`).
        public var kind: String
        public var folder: String?
        public var feedURL: String?
    }

    /// Largest file read, in bytes.
    public static let largest = 1 << 20

    public init(rules: [Rule], subscriptions: [Subscription]) {
        self.rules = rules.map { rule in
            let scope: Scope =
                switch rule.draft.scope {
                case .all: Scope(kind: "all")
                case .folder(let name): Scope(kind: "folder", folder: name)
                case .feed(let id):
                    Scope(kind: "feed", feedURL: subscriptions.first { $0.id == id }?.url.absoluteString ?? id.rawValue)
                }
            return Item(
                name: rule.draft.name, query: rule.draft.query, scope: scope,
                actions: rule.draft.actions.sorted().map(\.rawValue), label: rule.draft.label, paused: rule.draft.isPaused)
        }
    }

    /// The file as JSON, pretty-printed with sorted keys (a stable download).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a file; one that is too large or not a Kiosk rules file is refused with a sentence.
    public static func read(_ bytes: some Collection<UInt8>) throws(ReaderError) -> RuleFile {
        guard bytes.count <= largest else { throw .refused("That rules file is too large (over 1 MB).") }
        guard let file = try? JSONDecoder().decode(RuleFile.self, from: Data(bytes)), file.kiosk == "rules" else {
            throw .refused("That is not a Kiosk rules file (JSON with \"kiosk\": \"rules\").")
        }
        guard file.version == 1 else { throw .refused("That rules file is of a newer Kiosk (version \(file.version)).") }
        return file
    }

    /// Each item as a draft for `subscriptions` (a feed scope found by its address), or why not.
    public func drafts(for subscriptions: [Subscription]) -> [(item: Item, draft: Result<RuleDraft, ReaderError>)] {
        rules.map { item in
            let scope: RuleScope
            switch item.scope.kind {
            case "all": scope = .all
            case "folder": scope = .folder(item.scope.folder ?? "")
            case "feed":
                guard let address = item.scope.feedURL,
                    let feed = subscriptions.first(where: { $0.url.absoluteString == address || $0.id.rawValue == address })
                else { return (item, .failure(.refused("its feed (\(item.scope.feedURL ?? "none")) is not one of yours"))) }
                scope = .feed(feed.id)
            default: return (item, .failure(.refused("its scope “\(item.scope.kind)” is unknown")))
            }
            let actions = Set(item.actions.compactMap(RuleAction.init(rawValue:)))
            return (item, .success(RuleDraft(
                        name: item.name, query: item.query, scope: scope, actions: actions, label: item.label,
                        isPaused: item.paused)))
        }
    }
}
