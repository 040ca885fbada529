import Foundation
import KioskCore
import KioskModel

/// One follower of a feed, as the rules see them when the feed brings new entries: the name
/// and folder they gave it (for `feed:` and `folder:`), and their rules that are not paused, in
/// order.
package struct RuleFollower: Sendable {
    package var user: UserID
    package var feedName: String
    package var folder: String?
    package var rules: [Rule]

    package init(user: UserID, feedName: String, folder: String?, rules: [Rule]) {
        self.user = user
        self.feedName = feedName
        self.folder = folder
        self.rules = rules
    }
}

extension RuleFollower {
    /// Rules read with their follower's name and folder for the feed, ordered by user (as the
    /// stores select them), gathered into one follower each.
    package static func grouping(_ rows: [(user: UserID, feedName: String, folder: String?, rule: Rule)]) -> [RuleFollower] {
        var followers: [RuleFollower] = []
        for row in rows {
            if followers.last?.user != row.user {
                followers.append(RuleFollower(user: row.user, feedName: row.feedName, folder: row.folder, rules: []))
            }
            followers[followers.count - 1].rules.append(row.rule)
        }
        return followers
    }
}

/// What one follower's rules decided about a feed's new entries.
package struct RuleVerdict: Sendable, Hashable {
    package var read: [Int64] = []
    package var starred: [Int64] = []
    /// Entries hidden (read too).
    package var hidden: [Int64] = []
    /// Entries to notify the user's devices of.
    package var notify: [Int64] = []
    /// Entries each label goes on.
    package var labelled: [String: [Int64]] = [:]
    /// How many entries each rule matched.
    package var matches: [Int64: Int] = [:]
    /// Rules that ran out of their regular-expression budget on an entry, with the pattern.
    package var flags: [Int64: String] = [:]
    /// Entries a flagged rule was not run on: once out of budget, a rule is not run again on the
    /// rest of the batch, so a pathological pattern costs one budget per save, not one per entry
    /// (inside the transaction that stores them, every other write waiting).
    package var skipped = 0

    package var isEmpty: Bool { read.isEmpty && starred.isEmpty && hidden.isEmpty && notify.isEmpty && labelled.isEmpty && matches.isEmpty && flags.isEmpty }
}

/// How rules judge new entries, the same in every store: each store calls it in the transaction
/// that inserts a feed's new entries, then writes what it decided (read and star state, the
/// day's match counts, flags) before committing. So an entry is judged once, by whichever
/// process stored it, and nobody sees it before its rules acted.
package enum ArrivalRules {
    /// Judges `entries` (new in `source`) for each follower. Rules run in order; each sees what
    /// the earlier ones did (a rule that stars makes `is:starred` true for the next).
    package static func judge(
        _ entries: [(id: Int64, entry: Entry)], of source: SourceID, followers: [RuleFollower], receivedAt: Date,
        now: Date, budget: QueryBudget = .standard
    ) -> [UserID: RuleVerdict] {
        let judging: [(follower: RuleFollower, rules: [(rule: Rule, query: Query)])] = followers.compactMap { follower in
            let rules: [(rule: Rule, query: Query)] = follower.rules.compactMap { rule in
                guard !rule.draft.isPaused, rule.draft.acts,
                    rule.draft.scope.includes(source, filedIn: follower.folder),
                    let query = try? QueryParser.parse(rule.draft.query)
                else { return nil }
                return (rule, query)
            }
            return rules.isEmpty ? nil : (follower, rules)
        }
        guard !judging.isEmpty else { return [:] }
        // Each entry's text read and folded once, whoever follows its feed.
        let documents = entries.map { _, entry in
            FoldedDocument(
                EntryDocument.make(entry, feedName: "", folder: nil, isRead: false, isStarred: false, receivedAt: receivedAt))
        }
        var verdicts: [UserID: RuleVerdict] = [:]
        for (follower, rules) in judging {
            var verdict = RuleVerdict()
            for ((id, _), unfiled) in zip(entries, documents) {
                var document = unfiled.with(feed: follower.feedName, folders: follower.folder.map { [$0] } ?? [])
                var read = false
                var starred = false
                var hidden = false
                var notify = false
                var labels: [String] = []
                for (rule, query) in rules {
                    if verdict.flags[rule.id] != nil {
                        verdict.skipped += 1
                        continue
                    }
                    switch query.evaluate(document, now: now, budget: budget) {
                    case .match:
                        verdict.matches[rule.id, default: 0] += 1
                        if rule.draft.actions.contains(.markRead) { read = true }
                        if rule.draft.actions.contains(.star) { starred = true }
                        if rule.draft.actions.contains(.notify) { notify = true }
                        if rule.draft.actions.contains(.hide) {
                            hidden = true
                            read = true
                        }
                        document = document.with(isRead: read, isStarred: starred).with(isHidden: hidden)
                        if let label = rule.draft.label, !labels.contains(label) {
                            labels.append(label)
                            document = document.with(labels: labels)
                        }
                    case .noMatch:
                        break
                    case .exceeded(let pattern):
                        verdict.flags[rule.id] = pattern
                    }
                }
                if read { verdict.read.append(id) }
                if starred { verdict.starred.append(id) }
                if hidden { verdict.hidden.append(id) }
                if notify { verdict.notify.append(id) }
                for label in labels { verdict.labelled[label, default: []].append(id) }
            }
            if !verdict.isEmpty { verdicts[follower.user] = verdict }
        }
        return verdicts
    }

    /// The day a match is counted under: days since 1970, in UTC.
    package static func day(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The sentence a flagged rule shows.
    package static func flagSentence(pattern: String) -> String {
        "The pattern /\(pattern)/ took too long on an entry, which was left unmatched: make it simpler."
    }
}

/// What a query reads of an entry, the same for search, saved searches and rules.
package enum EntryDocument {
    package static func make(
        _ entry: Entry, feedName: String, folder: String?, isRead: Bool, isStarred: Bool, receivedAt: Date,
        article: StoredArticle? = nil, transcript: String? = nil, labels: [String] = [], isHidden: Bool = false
    ) -> QueryDocument {
        let content = [
            SearchText.plainSummary(of: entry), entry.content.map { HTMLText.plainText(fromHTML: $0) },
            article.map(ArticleColumns.text(of:)), transcript,
        ].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: String(QueryDocument.partSeparator))
        return QueryDocument(
            title: entry.title ?? "", author: entry.authors.compactMap(\.name).joined(separator: ", "),
            url: entry.link ?? "", content: content, feed: feedName, folders: folder.map { [$0] } ?? [], labels: labels,
            isRead: isRead, isStarred: isStarred, isHidden: isHidden, published: entry.published ?? entry.updated ?? receivedAt)
    }
}
