import Foundation
import KioskCore
import KioskModel
import KioskStore

/// Each user's rules: a query in the language of search, a scope and actions, run by the store
/// on every new entry as it arrives (`RuleStore`). Here: checking what a user writes, the
/// preview of what a rule would match, and what applying one to the entries already there
/// would change.
public struct Rules: Sendable {
    private let store: any KioskStore

    /// Most rules a user keeps: every one is judged on every new entry of their feeds.
    public static let mostPerUser = 1_000
    /// Longest query and name kept, in characters.
    public static let longestQuery = 1_000
    public static let longestName = 100
    /// Entries the preview lists, newest first.
    public static let previewed = 20
    /// Matches counted at most, for the preview and for applying a rule to existing entries.
    public static let countCap = 1_000

    public init(store: any KioskStore) {
        self.store = store
    }

    /// A rule and how many entries it matched on arrival in the last 7 days.
    public struct Summary: Sendable, Hashable {
        public var rule: Rule
        public var matchedThisWeek: Int
    }

    public func list(user: UserID, now: Date = Date()) async throws -> [Summary] {
        let rules = try await store.rules(user: user)
        guard !rules.isEmpty else { return [] }
        let counts = try await store.ruleMatches(user: user, since: Self.weekStart(now))
        return rules.map { Summary(rule: $0, matchedThisWeek: counts[$0.id] ?? 0) }
    }

    /// Where "the last 7 days" start: matches are counted by (UTC) day, so it is today and the
    /// six days before it (a week back from now, the day it falls on counted whole, was 8 days).
    public static func weekStart(_ now: Date) -> Date {
        let today = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        return Date(timeIntervalSince1970: today - 6 * 86_400)
    }

    public func rule(_ id: Int64, user: UserID) async throws -> Rule? {
        try await store.rules(user: user).first { $0.id == id }
    }

    /// Keeps a new rule, last in the user's order. A draft that does not read, or one rule too
    /// many, is refused with a sentence.
    public func add(_ draft: RuleDraft, user: UserID, now: Date = Date()) async throws -> Rule {
        let checked = try Self.check(draft)
        guard let rule = try await store.addRule(checked, user: user, now: now, most: Self.mostPerUser) else {
            throw ReaderError.limit("You have \(Self.mostPerUser) rules already: delete one to add another.")
        }
        return rule
    }

    /// Replaces a rule's draft; false when the user has no such rule.
    @discardableResult
    public func update(_ id: Int64, to draft: RuleDraft, user: UserID) async throws -> Bool {
        try await store.updateRule(id, to: try Self.check(draft), user: user)
    }

    /// Pauses or resumes a rule; false when the user has no such rule.
    @discardableResult
    public func setPaused(_ id: Int64, _ paused: Bool, user: UserID) async throws -> Bool {
        guard var draft = try await rule(id, user: user)?.draft else { return false }
        draft.isPaused = paused
        return try await store.updateRule(id, to: draft, user: user)
    }

    @discardableResult
    public func delete(_ id: Int64, user: UserID) async throws -> Bool {
        try await store.deleteRule(id, user: user)
    }

    public func move(_ id: Int64, earlier: Bool, user: UserID) async throws {
        try await store.moveRule(id, earlier: earlier, user: user)
    }

    /// Whether `rule` is a feed's "Notify on new entries": every entry of that feed, notify only.
    public static func notifiesOfEvery(_ rule: Rule, feed: SourceID) -> Bool {
        rule.draft.scope == .feed(feed) && rule.draft.query.isEmpty && rule.draft.actions == [.notify] && rule.draft.label == nil
    }

    /// Whether `user` is notified of every new entry of `feed` (a feed's "Notify on new entries").
    public func notifiesOfEvery(_ feed: SourceID, user: UserID) async throws -> Bool {
        try await store.rules(user: user).contains { Self.notifiesOfEvery($0, feed: feed) && !$0.draft.isPaused }
    }

    /// Turns a feed's "Notify on new entries" on (a rule: every entry of the feed, notify) or off
    /// (every such rule deleted).
    public func setNotifiesOfEvery(_ feed: SourceID, named name: String, _ on: Bool, user: UserID, now: Date = Date())
        async throws
    {
        let existing = try await store.rules(user: user).filter { Self.notifiesOfEvery($0, feed: feed) }
        if on {
            if let paused = existing.first(where: \.draft.isPaused), !existing.contains(where: { !$0.draft.isPaused }) {
                try await setPaused(paused.id, false, user: user)
            } else if existing.isEmpty {
                _ = try await add(
                    RuleDraft(name: "New in \(name)", query: "", scope: .feed(feed), actions: [.notify]), user: user, now: now)
            }
        } else {
            for rule in existing { try await store.deleteRule(rule.id, user: user) }
        }
    }

    /// `draft` trimmed, or why it cannot be kept.
    public static func check(_ draft: RuleDraft) throws(ReaderError) -> RuleDraft {
        var checked = draft
        checked.query = draft.query.trimmingCharacters(in: .whitespacesAndNewlines)
        if case .folder(let folder) = draft.scope, folder.isEmpty { checked.scope = .all }
        // No query: every new entry of the rule's folder or feed (never of every feed).
        guard !checked.query.isEmpty || checked.scope != .all else {
            throw .invalidName("Type the query the rule matches (a rule for one folder or feed may leave it empty).")
        }
        guard checked.query.count <= longestQuery else {
            throw .invalidName("A rule's query is at most \(longestQuery) characters long.")
        }
        _ = try parse(checked.query)
        if let label = draft.label {
            let trimmed = label.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                checked.label = nil
            } else {
                guard let name = LabelName.normalized(trimmed) else { throw Reader.badLabel }
                checked.label = name
            }
        }
        guard checked.acts else { throw .invalidName("Choose what the rule does: mark read, star, add a label, or more.") }
        let name = draft.name.trimmingCharacters(in: .whitespacesAndNewlines)
        checked.name = String((name.isEmpty ? (checked.query.isEmpty ? "Every new entry" : checked.query) : name).prefix(longestName))
        return checked
    }

    /// The query of `text`, or the parser's sentence (with its position) as the error.
    public static func parse(_ text: String) throws(ReaderError) -> Query {
        do {
            return try QueryParser.parse(text)
        } catch {
            throw .invalidName("This query cannot be read: \(error.description).")
        }
    }

    /// What a rule would match among the entries already there.
    public struct Preview: Sendable {
        /// Matches found, newest first (at most `countCap`).
        public var matches: [StoredEntry]
        /// Whether there may be more than `matches` (the count is "at least").
        public var isCapped: Bool
        /// How many entries the user has in all.
        public var total: Int

        public var newest: ArraySlice<StoredEntry> { matches.prefix(Rules.previewed) }
    }

    /// The entries of `scope` (within `subscriptions`, the user's) that `text` matches now.
    public func preview(
        _ text: String, scope: RuleScope, user: UserID, subscriptions: [Subscription], now: Date = Date()
    ) async throws -> Preview {
        guard text.count <= Self.longestQuery else {
            throw ReaderError.invalidName("A rule's query is at most \(Self.longestQuery) characters long.")
        }
        let query = try Self.parse(text)
        let inScope = subscriptions.filter { scope.includes($0.id, filedIn: $0.folder) }
        let found = try await EntrySearch(store: store).search(
            query, user: user, subscriptions: inScope, now: now, limit: Self.countCap, order: .newest)
        let total = try await store.itemCount(user: user)
        return Preview(
            matches: found.entries.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) },
            isCapped: !found.isExhaustive || found.entries.count >= Self.countCap, total: total)
    }

    /// What applying `rule` to the entries already there would change: the matches it would
    /// mark read (those unread), star (those not starred) and label (those without its label).
    public struct Application: Sendable, Hashable {
        public var read: [Int64]
        public var starred: [Int64]
        public var hidden: [Int64]
        /// The rule's label and the matches without it.
        public var labelled: Reader.Labelled?
        public var matched: Int
        public var isCapped: Bool
        public var total: Int

        /// "Mark 37 of your 4,210 entries read and star 3?", "Label 12 … “Alerts”?"
        public var question: String {
            var parts: [String] = []
            if !read.isEmpty { parts.append("mark \(read.count) read") }
            if !starred.isEmpty { parts.append("star \(starred.count)") }
            if !hidden.isEmpty { parts.append("hide \(hidden.count)") }
            if let labelled, !labelled.ids.isEmpty { parts.append("label \(labelled.ids.count) “\(labelled.label)”") }
            switch parts.count {
            case 0: return "Nothing to change: every entry the rule matches is already as it would make it."
            case 1:
                // "Mark 37 of your 4,210 entries read?"
                if !read.isEmpty { return "Mark \(count(read.count)) read?" }
                if !starred.isEmpty { return "Star \(count(starred.count))?" }
                if !hidden.isEmpty { return "Hide \(count(hidden.count))?" }
                return "Label \(count(labelled?.ids.count ?? 0)) “\(labelled?.label ?? "")”?"
            default:
                // "Mark 37 read and star 3, of your 4,210 entries?"
                let listed = parts.dropLast().joined(separator: ", ") + " and " + (parts.last ?? "")
                return listed.prefix(1).uppercased() + listed.dropFirst()
                    + "\(isCapped ? " (or more)" : ""), of your \(Self.grouped(total)) \(total == 1 ? "entry" : "entries")?"
            }
        }

        private func count(_ number: Int) -> String {
            "\(Self.grouped(number))\(isCapped ? " (or more)" : "") of your \(Self.grouped(total)) \(total == 1 ? "entry" : "entries")"
        }

        private static func grouped(_ number: Int) -> String { NumberText.grouped(number) }
    }

    public func application(of rule: Rule, user: UserID, subscriptions: [Subscription], now: Date = Date()) async throws
        -> Application
    {
        let preview = try await preview(
            rule.draft.query, scope: rule.draft.scope, user: user, subscriptions: subscriptions, now: now)
        let actions = rule.draft.actions
        var labelled: Reader.Labelled?
        if let label = rule.draft.label {
            let labels = try await store.entryLabels(ids: preview.matches.map(\.id), user: user)
            labelled = Reader.Labelled(
                label: label, ids: preview.matches.map(\.id).filter { !(labels[$0] ?? []).contains(label) })
        }
        return Application(
            read: actions.contains(.markRead) ? preview.matches.filter { !$0.isRead }.map(\.id) : [],
            starred: actions.contains(.star) ? preview.matches.filter { !$0.isStarred }.map(\.id) : [],
            hidden: actions.contains(.hide) ? preview.matches.filter { !$0.isHidden }.map(\.id) : [],
            labelled: labelled, matched: preview.matches.count, isCapped: preview.isCapped, total: preview.total)
    }
}

extension Rules {
    /// What importing a rules file did: how many were added, and each refused with why.
    public struct ImportReport: Sendable {
        public var added: Int
        public var refused: [(name: String, why: String)]
    }

    /// The user's rules as a file (`RuleFile`).
    public func export(user: UserID, subscriptions: [Subscription]) async throws -> Data {
        try RuleFile(rules: try await store.rules(user: user), subscriptions: subscriptions).json()
    }

    /// Adds the rules of a file after the user's own, each checked as the form checks it; a
    /// rule equal to one the user has (query, scope, actions) is skipped.
    public func importFile(_ bytes: [UInt8], user: UserID, subscriptions: [Subscription], now: Date = Date()) async throws
        -> ImportReport
    {
        let file = try RuleFile.read(bytes)
        var existing = Set(try await store.rules(user: user).map { Self.identity(of: $0.draft) })
        var report = ImportReport(added: 0, refused: [])
        for (item, result) in file.drafts(for: subscriptions) {
            do {
                let draft = try Self.check(try result.get())
                guard existing.insert(Self.identity(of: draft)).inserted else {
                    report.refused.append((item.name, "you have this rule already"))
                    continue
                }
                _ = try await add(draft, user: user, now: now)
                report.added += 1
            } catch let error as ReaderError {
                report.refused.append((item.name, error.message))
            }
        }
        return report
    }

    private static func identity(of draft: RuleDraft) -> String {
        "\(draft.query)\u{1}\(draft.scope)\u{1}\(RuleColumns.actions(draft.actions))\u{1}\(draft.label ?? "")"
    }
}
