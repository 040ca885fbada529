import Foundation
import KioskModel

/// Which feeds a rule looks at.
public enum RuleScope: Sendable, Hashable {
    case all
    /// The feeds the user filed in this folder.
    case folder(String)
    case feed(SourceID)
}

extension RuleScope {
    /// Whether the scope takes in entries of feed `source`, filed by its reader in `folder`.
    public func includes(_ source: SourceID, filedIn folder: String?) -> Bool {
        switch self {
        case .all: true
        case .folder(let name): folder == name
        case .feed(let id): id == source
        }
    }
}

/// What a rule does to an entry it matches.
public enum RuleAction: String, Sendable, Hashable, CaseIterable, Comparable {
    case markRead = "read"
    case star = "star"
    /// Read, and out of every list, count and synced app; under Hidden, and `is:hidden`.
    case hide = "hide"
    /// A notification on the user's devices (Web Push), summed up when many come at once.
    case notify = "notify"

    /// What a form and a rule's row call it.
    public var label: String {
        switch self {
        case .markRead: "Mark read"
        case .star: "Star"
        case .hide: "Hide"
        case .notify: "Notify"
        }
    }

    public static func < (lhs: RuleAction, rhs: RuleAction) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// What a user writes of a rule: a query in the language of search (`KioskCore.Query`), kept
/// as typed, where it looks, and what it does.
public struct RuleDraft: Sendable, Hashable {
    public var name: String
    public var query: String
    public var scope: RuleScope
    public var actions: Set<RuleAction>
    /// The label the rule puts on what it matches (`LabelName`); nil for none.
    public var label: String?
    public var isPaused: Bool

    public init(
        name: String, query: String, scope: RuleScope = .all, actions: Set<RuleAction>, label: String? = nil,
        isPaused: Bool = false
    ) {
        self.name = name
        self.query = query
        self.scope = scope
        self.actions = actions
        self.label = label
        self.isPaused = isPaused
    }

    /// Whether the rule does anything to what it matches.
    public var acts: Bool { !actions.isEmpty || label != nil }
}

/// A rule as kept: its draft, its place in the user's order, and whether it was flagged (a
/// regular expression ran out of its budget on an entry: that entry was not matched).
public struct Rule: Sendable, Hashable {
    public var id: Int64
    public var draft: RuleDraft
    /// Rules run in ascending order.
    public var position: Int
    public var createdAt: Date
    /// Why the rule was flagged, the last time it was; nil when it never was.
    public var flag: String?

    public init(id: Int64, draft: RuleDraft, position: Int, createdAt: Date, flag: String? = nil) {
        self.id = id
        self.draft = draft
        self.position = position
        self.createdAt = createdAt
        self.flag = flag
    }
}

/// Each user's rules. The stores also run them: on every new entry, in the transaction that
/// stores it (`ArrivalRules`), so no page or sync client sees an entry before its rules did.
public protocol RuleStore: Sendable {
    /// `user`'s rules, in the order they run.
    func rules(user: UserID) async throws -> [Rule]
    /// Keeps a new rule for `user`, last in their order, unless they have `most` already (nil):
    /// counted in the write that adds it, so two requests at once cannot pass the cap.
    func addRule(_ draft: RuleDraft, user: UserID, now: Date, most: Int) async throws -> Rule?
    /// Replaces one of `user`'s rules' draft (and clears its flag); false when there is none.
    @discardableResult
    func updateRule(_ id: Int64, to draft: RuleDraft, user: UserID) async throws -> Bool
    /// Forgets one of `user`'s rules; false when there is none.
    @discardableResult
    func deleteRule(_ id: Int64, user: UserID) async throws -> Bool
    /// Moves a rule one place earlier (`earlier`) or later in `user`'s order.
    func moveRule(_ id: Int64, earlier: Bool, user: UserID) async throws
    /// How many entries each of `user`'s rules matched on arrival since `since` (rules with none
    /// absent), counted per day (so "since" is rounded down to its day, in UTC).
    func ruleMatches(user: UserID, since: Date) async throws -> [Int64: Int]
}

/// How both stores write a rule's columns: its actions as a comma-separated list, its scope as
/// a folder or a feed (neither: every feed).
package enum RuleColumns {
    package static func actions(_ actions: Set<RuleAction>) -> String {
        actions.sorted().map(\.rawValue).joined(separator: ",")
    }

    /// Actions this Kiosk does not know (written by a newer one) are left out.
    package static func actions(_ text: String) -> Set<RuleAction> {
        Set(text.split(separator: ",").compactMap { RuleAction(rawValue: String($0)) })
    }

    package static func scope(folder: String?, feed: String?) -> RuleScope {
        if let feed { return .feed(SourceID(rawValue: feed)) }
        if let folder { return .folder(folder) }
        return .all
    }

    package static func folder(of scope: RuleScope) -> String? {
        if case .folder(let name) = scope { name } else { nil }
    }

    package static func feed(of scope: RuleScope) -> String? {
        if case .feed(let id) = scope { id.rawValue } else { nil }
    }

    /// The name a follower's rules know a feed by (`feed:`), as `Subscription.displayName` gives it.
    package static func feedName(title: String?, feedTitle: String?, url: String) -> String {
        guard let address = URL(string: url) else { return title ?? feedTitle ?? url }
        return Subscription(id: SourceID(rawValue: url), url: address, title: title, feedTitle: feedTitle).displayName
    }
}

/// Where rules go when one moves.
package enum RuleOrder {
    /// `order` with `id` swapped with its neighbour before (`earlier`) or after it; unchanged
    /// when it is first (or last) already, or absent.
    package static func moving(_ id: Int64, earlier: Bool, in order: [Int64]) -> [Int64] {
        guard let index = order.firstIndex(of: id) else { return order }
        let target = earlier ? index - 1 : index + 1
        guard order.indices.contains(target) else { return order }
        var moved = order
        moved.swapAt(index, target)
        return moved
    }
}

extension RuleStore {
    /// Keeps a new rule for `user`, last in their order, whatever their count.
    @discardableResult
    public func addRule(_ draft: RuleDraft, user: UserID, now: Date) async throws -> Rule {
        guard let rule = try await addRule(draft, user: user, now: now, most: .max) else {
            throw StoreError.other("the rule was not added")
        }
        return rule
    }
}
