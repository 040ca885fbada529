import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// Rules in the web app: the form's preview, saving, a new entry sorted on arrival, applying a
/// rule to the entries already there (asked first, undone), pausing and deleting, and what is
/// refused with a sentence.
@Suite struct RuleRouteTests {
    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    private struct Preview: Decodable {
        var count: String
        var list: String
        var matches: Int?
        var error: String?
    }

    @Test func aRuleIsPreviewedSavedAppliedUndoneAndSortsNewEntries() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let entries = [
                Entry(id: "s-1", title: "Storm hits the coast", summary: "Winds closed the port."),
                Entry(id: "s-2", title: "Port reopens after storm", summary: "Ferries sail again."),
                Entry(id: "s-3", title: "Markets calm", summary: "Nothing about weather."),
            ]
            try await kiosk.store.saveSourceState(SourceState(entries: entries), for: .business)
            try await kiosk.run { client, _ in
                func preview(_ query: String) async throws -> Preview {
                    let escaped = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    return try JSONDecoder().decode(
                        Preview.self, from: try await client.get("/reader/rules/preview?query=\(escaped)&scope=all").data)
                }
                let storms = try await preview("intitle:storm")
                #expect(storms.matches == 2 && storms.error == nil)
                #expect(storms.count.contains("Matches 2 of your"))
                #expect(storms.list.contains("Storm hits the coast") && !storms.list.contains("Markets calm"))
                let broken = try await preview("\"storm")
                #expect(broken.error?.contains("closing quote missing") == true)
                // The form without script shows the same preview.
                let page = try await client.text("/reader/rules/new?query=intitle%3Astorm&scope=all")
                #expect(page.contains("Matches 2 of your") && page.contains("Port reopens after storm"))
                // As a browser's GET form writes it: "+" is a space, "%2B" a plus.
                let words = try await client.text("/reader/rules/new?query=intitle%3Astorm+coast&scope=all")
                #expect(words.contains("Matches 1 of your") && words.contains("Storm hits the coast"))

                let saved = try await client.execute(
                    uri: "/reader/rules", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "query=intitle%3Astorm&scope=all&star=on&name=%3Cscript%3EStorms"))
                #expect(saved.status == .seeOther)
                let list = try await client.text("/reader/rules")
                #expect(list.contains("&lt;script&gt;Storms") && !list.contains("<script>Storms"))
                let rule = try #require(try await kiosk.store.rules(user: .owner).first)
                #expect(rule.draft.actions == [.star] && rule.draft.scope == .all)

                // Applying it to the entries already there asks first, then can be undone.
                let question = try await client.text("/reader/rules/\(rule.id)/apply")
                #expect(question.contains("Star 2 of your"))
                #expect(try await kiosk.store.starredCount(user: .owner) == 0)
                let applied = String(
                    buffer: try await client.execute(uri: "/reader/rules/\(rule.id)/apply", method: .post, headers: Self.form).body)
                #expect(try await kiosk.store.starredCount(user: .owner) == 2)
                let token = try #require(Self.value(of: "token", in: applied))
                let undone = try await client.execute(
                    uri: "/reader/rules/\(rule.id)/undo", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "token=\(token)"))
                #expect(undone.status == .seeOther)
                #expect(try await kiosk.store.starredCount(user: .owner) == 0)

                // A new entry is starred as it arrives.
                try await kiosk.store.saveSourceState(
                    SourceState(entries: [Entry(id: "s-4", title: "Another storm", summary: "Again.")] + entries), for: .business)
                #expect(try await kiosk.store.starredCount(user: .owner) == 1)
                let week = try await client.text("/reader/rules")
                #expect(week.contains("Matched 1 entry in the last 7 days"))

                // Paused, it leaves the next one alone.
                let paused = try await client.execute(
                    uri: "/reader/rules/\(rule.id)/pause", method: .post, headers: Self.form, body: ByteBuffer(string: "paused=true"))
                #expect(paused.status == .seeOther)
                try await kiosk.store.saveSourceState(
                    SourceState(entries: [Entry(id: "s-5", title: "Storm three", summary: "More.")] + entries), for: .business)
                #expect(try await kiosk.store.starredCount(user: .owner) == 1)

                let deleted = try await client.execute(uri: "/reader/rules/\(rule.id)/delete", method: .post, headers: Self.form)
                #expect(deleted.status == .seeOther)
                #expect(try await kiosk.store.rules(user: .owner).isEmpty)
                #expect(try await client.get("/reader/rules/\(rule.id)/edit").status == .notFound)
            }
        }
    }

    /// A hide applied to entries already there, undone: shown again and unread again (a hidden
    /// entry is never marked unread, so the undo shows them first).
    @Test func undoingAnAppliedHideShowsTheEntriesUnreadAgain() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "u-1", title: "Storm one"), Entry(id: "u-2", title: "Storm two")]), for: .business)
            try await kiosk.run { client, _ in
                _ = try await client.execute(
                    uri: "/reader/rules", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "query=intitle%3Astorm&scope=all&hide=on"))
                let rule = try #require(try await kiosk.store.rules(user: .owner).first)
                let unread = try await kiosk.dependencies.reader.counts(user: .owner).unread[.business]
                let applied = String(
                    buffer: try await client.execute(uri: "/reader/rules/\(rule.id)/apply", method: .post, headers: Self.form).body)
                #expect(try await kiosk.store.readingList(EntryFilter(hidden: true), user: .owner).count == 2)
                let token = try #require(Self.value(of: "token", in: applied))
                _ = try await client.execute(
                    uri: "/reader/rules/\(rule.id)/undo", method: .post, headers: Self.form, body: ByteBuffer(string: "token=\(token)"))
                #expect(try await kiosk.store.readingList(EntryFilter(hidden: true), user: .owner).isEmpty)
                #expect(try await kiosk.dependencies.reader.counts(user: .owner).unread[.business] == unread)
            }
        }
    }

    @Test func aRuleThatCannotBeKeptIsRefusedWithASentence() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.run { client, _ in
                let cases = [
                    ("query=%22storm&read=on", "closing quote missing"),
                    ("query=storm", "Choose what the rule does"),
                    ("query=&read=on", "Type the query"),
                    ("query=\(String(repeating: "a", count: 1_001))&read=on", "at most 1000 characters"),
                    ("query=%2F\(String(repeating: "a", count: 501))%2F&read=on", "500"),
                ]
                for (body, sentence) in cases {
                    let refused = try await client.execute(
                        uri: "/reader/rules", method: .post, headers: Self.form, body: ByteBuffer(string: body))
                    #expect(refused.status == .badRequest)
                    let page = String(buffer: refused.body)
                    #expect(page.contains(sentence), "\(body.prefix(40)): \(sentence)")
                    // The form comes back as typed.
                    #expect(page.contains(#"id="rule-form""#))
                }
                #expect(try await kiosk.store.rules(user: .owner).isEmpty)
                // The preview of a query too long says so, as the form does.
                let preview = try await client.text(
                    "/reader/rules/preview?query=\(String(repeating: "a", count: 1_001))&scope=all")
                #expect(preview.contains("at most 1000 characters"))

                // 1,000 rules at most: the next is refused with a sentence, and nothing is kept.
                for index in 0..<Rules.mostPerUser {
                    _ = try await kiosk.store.addRule(
                        RuleDraft(name: "r\(index)", query: "w\(index)", actions: [.markRead]), user: .owner, now: Date())
                }
                let tooMany = try await client.execute(
                    uri: "/reader/rules", method: .post, headers: Self.form, body: ByteBuffer(string: "query=storm&read=on"))
                #expect(tooMany.status == .badRequest || tooMany.status == .tooManyRequests)
                #expect(String(buffer: tooMany.body).contains("You have 1000 rules already"))
                #expect(try await kiosk.store.rules(user: .owner).count == Rules.mostPerUser)
            }
        }
    }

    /// A feed's "Notify on new entries" is a rule with no query for that feed alone: ticked, it
    /// is kept (once) and the next entry of that feed is queued for the devices; unticked, gone.
    @Test func aFeedsNotifyOnNewEntriesIsARuleForEveryEntryOfThatFeed() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            _ = try await kiosk.store.savePushDevice(
                user: .owner, kind: .webhook, endpoint: "https://hooks.example/k", p256dh: "", auth: "s", name: "Hook",
                now: Date())
            try await kiosk.run { client, _ in
                let settings = "/reader/feed/business/settings"
                #expect(try await !client.text(settings).contains(#"id="feed-notify" name="notify" checked"#))
                for _ in 0..<2 {
                    let saved = try await client.execute(
                        uri: settings, method: .post, headers: Self.form, body: ByteBuffer(string: "title=&folder=&notify=on"))
                    #expect(saved.status == .seeOther)
                }
                let rules = try await kiosk.store.rules(user: .owner)
                #expect(rules.count == 1)
                #expect(rules.first?.draft.scope == .feed(.business) && rules.first?.draft.query == "")
                #expect(try await client.text(settings).contains(#"id="feed-notify" name="notify" checked"#))
                try await kiosk.store.saveSourceState(
                    SourceState(entries: [Entry(id: "n-1", title: "Anything at all")]), for: .business)
                #expect(try await kiosk.store.pendingPushes(limit: 10).count == 1)
                // No query is every entry of a feed or folder only, never of every feed.
                let everything = try await client.execute(
                    uri: "/reader/rules", method: .post, headers: Self.form, body: ByteBuffer(string: "query=&scope=all&notify=on"))
                #expect(everything.status == .badRequest)
                // Paused, the box shows unticked; a rename then leaves the rule alone.
                let rule = try #require(try await kiosk.store.rules(user: .owner).first)
                try await Rules(store: kiosk.store).setPaused(rule.id, true, user: .owner)
                #expect(try await !client.text(settings).contains(#"id="feed-notify" name="notify" checked"#))
                _ = try await client.execute(
                    uri: settings, method: .post, headers: Self.form, body: ByteBuffer(string: "title=Wire&folder=&notifyWas=off"))
                #expect(try await kiosk.store.rules(user: .owner).count == 1)
                // Unticked from ticked: gone.
                try await Rules(store: kiosk.store).setPaused(rule.id, false, user: .owner)
                _ = try await client.execute(
                    uri: settings, method: .post, headers: Self.form, body: ByteBuffer(string: "title=&folder=&notifyWas=on"))
                #expect(try await kiosk.store.rules(user: .owner).isEmpty)
            }
        }
    }

    @Test func rulesAreExportedAndImportedAsJSONBesideTheOPML() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.run { client, _ in
                for body in [
                    "query=intitle%3Astorm&scope=all&star=on&hide=on&notify=on&label=Weather&name=Storms",
                    "query=sponsored&scope=feed%3Abusiness&read=on&paused=on",
                    "query=climate&scope=folder%3ANews&read=on&star=on",
                ] {
                    let saved = try await client.execute(
                        uri: "/reader/rules", method: .post, headers: Self.form, body: ByteBuffer(string: body))
                    #expect(saved.status == .seeOther)
                }
                let exported = try await client.get("/reader/rules.json")
                #expect(exported.headers[.contentDisposition]?.contains("kiosk-rules.json") == true)
                let file = try JSONDecoder().decode(KioskReader.RuleFile.self, from: exported.data)
                #expect(file.rules.map(\.name) == ["Storms", "sponsored", "climate"])
                #expect(file.rules[1].scope.kind == "feed" && file.rules[1].scope.feedURL?.hasPrefix("http") == true)
                #expect(file.rules[1].paused && file.rules[2].actions == ["read", "star"])
                #expect(Set(file.rules[0].actions) == ["star", "hide", "notify"] && file.rules[0].label == "Weather")

                // Imported again: each is one the user has already.
                var page = try await client.text("/reader/opml")
                #expect(page.contains(#"id="export-rules""#))
                let again = try await client.execute(
                    uri: "/reader/rules/import", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(data: exported.data))
                page = String(buffer: again.body)
                #expect(page.contains("0 rules added, 3 not.") && page.contains("you have this rule already"))

                // Into an account without them: every rule is back, the feed's found by its address.
                try await kiosk.store.deleteRule(try #require(try await kiosk.store.rules(user: .owner).first).id, user: .owner)
                let unknownFeed = #"{"kiosk":"rules","version":1,"rules":[{"name":"Lost","query":"x","scope":{"kind":"feed","feedURL":"https://nowhere.example/feed"},"actions":["read"],"paused":false},{"name":"Bad","query":"\"x","scope":{"kind":"all"},"actions":["read"],"paused":false}]}"#
                page = String(buffer: try await client.execute(
                    uri: "/reader/rules/import", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: unknownFeed)).body)
                #expect(page.contains("0 rules added, 2 not."))
                #expect(page.contains("Lost: its feed (https://nowhere.example/feed) is not one of yours"))
                #expect(page.contains("closing quote missing"))
                page = String(buffer: try await client.execute(
                    uri: "/reader/rules/import", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(data: exported.data)).body)
                #expect(page.contains("1 rule added, 2 not."))
                #expect(try await kiosk.store.rules(user: .owner).count == 3)
                // The rule deleted and imported again does all it did: star, hide, notify, label.
                let back = try #require(try await kiosk.store.rules(user: .owner).first { $0.draft.name == "Storms" })
                #expect(back.draft.actions == [.star, .hide, .notify] && back.draft.label == "Weather")

                let junk = String(buffer: try await client.execute(
                    uri: "/reader/rules/import", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: "<opml/>")).body)
                #expect(junk.contains("That is not a Kiosk rules file"))
            }
        }
    }

    /// The value of the hidden input named `name` in `html`.
    private static func value(of name: String, in html: String) -> String? {
        guard let range = html.range(of: #"name="\#(name)" value=""#) else { return nil }
        return html[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }
}
