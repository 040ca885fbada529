import Foundation
import KioskStore
import Logging

/// What demo mode starts with besides its sample feeds, so rules and saved searches can be tried
/// at once: a saved search and three example rules, paused (the demo's News lists stay as the
/// sample feeds serve them until the visitor resumes one, or applies it to the entries there).
/// Added once, on the first start of a demo data directory.
enum DemoExamples {
    static let rules = [
        RuleDraft(
            name: "Storms, floods and quakes", query: "storm OR flood OR flooding OR quake", actions: [.star], label: "Weather",
            isPaused: true),
        RuleDraft(
            name: "Awards season, read", query: #"intitle:/\b(Grammy|Oscars?|BRIT)\b/"#, actions: [.markRead], isPaused: true),
        RuleDraft(
            name: "Markets, quietly", query: #"feed:business (stocks OR shares OR "Wall Street")"#, actions: [.markRead],
            isPaused: true),
    ]
    static let search = (name: "Climate and energy", query: "climate OR carbon OR coal OR oil")

    static func add(to store: any KioskStore, logger: Logger, now: Date = Date()) async {
        do {
            for draft in rules { _ = try await store.addRule(draft, user: .owner, now: now) }
            _ = try await store.saveSearch(name: search.name, query: search.query, user: .owner, now: now)
        } catch {
            logger.warning("the demo's example rules were not added", metadata: ["error": "\(error)"])
        }
    }
}
