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

/// Labels in the web app and the Google Reader API: put on by hand (entry page, script or
/// plain form), by a rule on arrival and by applying a rule; each a reading list with a count;
/// what apps see as item tags; what is refused with a sentence.
@Suite struct LabelRouteTests {
    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
    private static let json: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"]

    private struct Counts: Decodable {
        var labels: [String: Int]
    }

    @Test func labelsArePutOnByHandListedCountedAndTakenOff() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.store.saveSourceState(
                SourceState(entries: [
                    Entry(id: "l-1", title: "Rates rise", summary: "Banks follow."),
                    Entry(id: "l-2", title: "Rates hold", summary: "Nothing new."),
                ]), for: .business)
            try await kiosk.run { client, _ in
                let entries = try await kiosk.store.readingList(EntryFilter(), user: .owner)
                let rise = try #require(entries.first { $0.entry.title == "Rates rise" })
                let entryPath = "/reader/entry/business/\(rise.key)"
                let page = try await client.text(entryPath)
                #expect(page.contains(#"id="label-form""#) && page.contains("Add a label"))

                // The script's POST: JSON back, the name as kept.
                let added = try await client.execute(
                    uri: "/reader/label", method: .post, headers: Self.json,
                    body: ByteBuffer(string: "ids=\(rise.id)&label=%20Read%20%20later%20&on=true"))
                #expect(added.status == .ok)
                #expect(String(buffer: added.body).contains(#""label":"Read later""#))
                // A plain form: back to the entry.
                let hostile = "<b>x</b>"
                let plain = try await client.execute(
                    uri: "/reader/label", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "ids=\(rise.id)&label=%3Cb%3Ex%3C%2Fb%3E&back=\(entryPath)"))
                #expect(plain.status == .seeOther && plain.headers[.location] == entryPath)

                let labelled = try await client.text(entryPath)
                #expect(labelled.contains(#"data-label="Read later""#) && labelled.contains("Remove the label Read later"))
                #expect(labelled.contains("&lt;b&gt;x&lt;/b&gt;") && !labelled.contains(hostile))
                let home = try await client.text("/reader")
                #expect(home.contains(#"href="/reader/label/Read%20later""#) && home.contains(#"data-count-for="label:Read later""#))
                let counts = try JSONDecoder().decode(Counts.self, from: try await client.get("/reader/counts").data)
                #expect(counts.labels == ["Read later": 1, hostile: 1])

                let list = try await client.text("/reader/label/Read%20later")
                #expect(list.contains("Rates rise") && !list.contains("Rates hold"))
                #expect(list.contains(#"data-scope="label:Read later""#))
                #expect(try await client.get("/reader/label/Nothing").status == .notFound)

                // Mark all read of a label reads only its entries.
                let marked = try await client.execute(
                    uri: "/reader/mark-all", method: .post, headers: Self.json,
                    body: ByteBuffer(string: "scope=label%3ARead%20later&upTo=\(Int64.max)"))
                #expect(marked.status == .ok)
                let after = try await kiosk.store.readingList(EntryFilter(), user: .owner)
                #expect(after.first { $0.id == rise.id }?.isRead == true)
                #expect(after.first { $0.entry.title == "Rates hold" }?.isRead == false)

                // Refused with a sentence: too long, a control character.
                for bad in [String(repeating: "x", count: 41), "a%07b", "%20"] {
                    let refused = try await client.execute(
                        uri: "/reader/label", method: .post, headers: Self.json,
                        body: ByteBuffer(string: "ids=\(rise.id)&label=\(bad)"))
                    #expect(refused.status == .conflict)
                    #expect(String(buffer: refused.body).contains("A label is 1 to 40 characters"))
                }

                // Taken off: the list is gone with it.
                let removed = try await client.execute(
                    uri: "/reader/label", method: .post, headers: Self.json,
                    body: ByteBuffer(string: "ids=\(rise.id)&label=Read%20later&on=false"))
                #expect(removed.status == .ok)
                #expect(try await client.get("/reader/label/Read%20later").status == .notFound)
            }
        }
    }

    @Test func aRuleLabelsNewEntriesAndAppliesItsLabelToExistingOnesWithUndo() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "o-1", title: "Old storm", summary: "Before the rule.")]), for: .business)
            try await kiosk.run { client, _ in
                let saved = try await client.execute(
                    uri: "/reader/rules", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "query=intitle%3Astorm&scope=all&label=Alerts&name=Storms"))
                #expect(saved.status == .seeOther)
                let rule = try #require(try await kiosk.store.rules(user: .owner).first)
                #expect(rule.draft.label == "Alerts" && rule.draft.actions.isEmpty)
                #expect(try await client.text("/reader/rules").contains("Label “Alerts”"))
                #expect(try await client.text("/reader/rules/\(rule.id)/edit").contains(#"value="Alerts""#))

                try await kiosk.store.saveSourceState(
                    SourceState(entries: [
                        Entry(id: "n-1", title: "New storm", summary: "After."), Entry(id: "o-1", title: "Old storm", summary: "Before the rule."),
                    ]), for: .business)
                let alerts = try await kiosk.store.readingList(EntryFilter(label: "Alerts"), user: .owner)
                #expect(alerts.map(\.entry.title) == ["New storm"])

                let question = try await client.text("/reader/rules/\(rule.id)/apply")
                #expect(question.contains("Label 1 of your") && question.contains("“Alerts”?"))
                let applied = try await client.execute(uri: "/reader/rules/\(rule.id)/apply", method: .post, headers: Self.form)
                #expect(applied.status == .ok)
                #expect(try await kiosk.store.readingList(EntryFilter(label: "Alerts"), user: .owner).count == 2)
                let token = try #require(
                    String(buffer: applied.body).firstMatch(of: /name="token" value="([^"]+)"/).map { String($0.1) })
                let undone = try await client.execute(
                    uri: "/reader/rules/\(rule.id)/undo", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "token=\(token)"))
                #expect(undone.status == .seeOther)
                #expect(try await kiosk.store.readingList(EntryFilter(label: "Alerts"), user: .owner).map(\.entry.title) == ["New storm"])

                // A rule with nothing to do, or a label that cannot be one, is refused.
                let idle = try await client.execute(
                    uri: "/reader/rules", method: .post, headers: Self.form, body: ByteBuffer(string: "query=x&scope=all&label=%20"))
                #expect(String(buffer: idle.body).contains("Choose what the rule does"))
            }
        }
    }

    @Test func googleReaderClientsSeeAndChangeItemLabelsAndFoldersStayFolders() async throws {
        try await withKioskApp { kiosk in
            let user = try await kiosk.dependencies.accounts.add(name: "tags", password: "sync-password", isAdmin: false).id
            try await kiosk.store.saveSourceState(
                SourceState(entries: (1...3).map { Entry(id: "urn:t\($0)", title: "Entry \($0)") }), for: .business)
            try await kiosk.run { client, _ in
                let app = try await GoogleReaderReplayTests.NetNewsWire.signedIn(
                    client, form: "Email=tags&Passwd=sync-password&service=reader&accountType=HOSTED_OR_GOOGLE")
                let ids = try await app.itemIDs("n=10&s=user/-/state/com.google/reading-list").ids
                #expect(ids.count == 3)
                let label = "user/-/label/Later"
                let edit = try await app.call(
                    .post, "/reader/api/0/edit-tag", body: "T=\(app.token)&i=\(ids[0])&i=\(ids[1])&a=\(label)")
                #expect(edit.status == .ok)
                #expect(try await kiosk.store.labelCounts(user: user).map(\.name) == ["Later"])
                // Folders stay folders: the News folder's stream is its feeds', not a label.
                #expect(try await app.itemIDs("n=10&s=user/-/label/News").ids.count == 3)
                #expect(try await app.itemIDs("n=10&s=\(label)").ids.sorted() == [ids[0], ids[1]].sorted())

                struct Contents: Decodable {
                    struct Item: Decodable { var id: String; var categories: [String] }
                    var items: [Item]
                }
                let contents = try JSONDecoder().decode(
                    Contents.self, from: try await app.call(.get, "/reader/api/0/stream/contents/\(label)?n=10").data)
                #expect(contents.items.count == 2)
                #expect(contents.items.allSatisfy { $0.categories.contains(label) && $0.categories.contains("user/-/label/News") })

                struct Tags: Decodable {
                    struct Tag: Decodable { var id: String; var type: String? }
                    var tags: [Tag]
                }
                let tags = try JSONDecoder().decode(Tags.self, from: try await app.call(.get, "/reader/api/0/tag/list?output=json").data)
                #expect(tags.tags.contains { $0.id == label && $0.type == "tag" })
                #expect(tags.tags.contains { $0.id == "user/-/label/News" && $0.type == "folder" })

                _ = try await app.call(.post, "/reader/api/0/edit-tag", body: "T=\(app.token)&i=\(ids[0])&r=\(label)")
                #expect(try await app.itemIDs("n=10&s=\(label)").ids == [ids[1]])
                // The web reader sees the same label.
                #expect(try await kiosk.store.readingList(EntryFilter(label: "Later"), user: user).count == 1)
            }
        }
    }
}
