import Foundation
import Hummingbird
import HummingbirdTesting
import KioskAccounts
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// docs/SECURITY.md's "Known gaps" 5, 6 and 8, closed by tests: every POST endpoint refuses a body
/// over its cap, the sync APIs and the reader's lists stop at their page ceilings, and passwords
/// keep their rules and are kept as bcrypt at cost 12.
@Suite struct LimitsAndRulesTests {
    static let password = "a long sample password"

    /// A body of `size` bytes of a URL-encoded form field.
    static func body(_ size: Int, field: String = "ids") -> ByteBuffer {
        ByteBuffer(string: field + "=" + String(repeating: "1", count: max(0, size - field.count - 1)))
    }

    @Test func everyPostEndpointRefusesABodyOverItsCap() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"]
                // The owner's forms (no account yet): 64 KiB.
                for uri in ["/reader/read", "/reader/star", "/reader/mark-all", "/reader/feed/business/settings", "/reader/add", "/reader/subscribe"] {
                    let over = try await client.execute(uri: uri, method: .post, headers: form, body: Self.body((64 << 10) + 1))
                    #expect(over.status == .contentTooLarge, "\(uri): \(over.status)")
                }
                // An OPML upload: 6 MB.
                let upload = try await client.execute(
                    uri: "/reader/import", method: .post, headers: [.contentType: "text/xml"],
                    body: ByteBuffer(bytes: [UInt8](repeating: UInt8(ascii: " "), count: (6 << 20) + 1)))
                #expect(upload.status == .contentTooLarge)
                #expect(try await client.get("/healthz").status == .ok)
            }
        }
        try await withKioskApp { kiosk in
            try await kiosk.accounts.add(name: "ada", password: Self.password, isAdmin: false)
            try await kiosk.run { client, _ in
                let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                // The sign-in form: 8 KiB.
                let login = try await client.execute(uri: "/login", method: .post, headers: form, body: Self.body(8_193, field: "name"))
                #expect(login.status == .contentTooLarge)
                // A signed-in form whose token is read from its body: 64 KiB before any route.
                let session = try await client.signIn(name: "ada", password: Self.password)
                let signedIn = try await client.execute(
                    uri: "/reader/read", method: .post, headers: session.headers(csrf: false), body: Self.body((64 << 10) + 1))
                #expect(signedIn.status == .contentTooLarge)
                // Fever: 64 KiB; the Google Reader API: 6 MB.
                let fever = try await client.execute(
                    uri: "/api/fever?api", method: .post, headers: form, body: Self.body((64 << 10) + 1, field: "api_key"))
                #expect(fever.status == .contentTooLarge)
                let greader = try await client.execute(
                    uri: "/api/greader/accounts/ClientLogin", method: .post, headers: form, body: Self.body((6 << 20) + 1, field: "Email"))
                #expect(greader.status == .contentTooLarge)
                #expect(try await client.get("/healthz").status == .ok)
            }
        }
    }

    @Test func syncAndReaderPagesStopAtTheirCeilings() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.accounts.add(name: "ada", password: Self.password, isAdmin: false)
            // More than Google Reader's ceilings: at most 10,000 ids and 1,000 items a page.
            let entries = (1...10_050).map { Entry(id: "e\($0)", title: "Entry \($0)") }
            try await kiosk.store.saveSourceState(SourceState(entries: entries), for: .business)
            try await kiosk.run { client, _ in
                let login = try await client.execute(
                    uri: "/api/greader/accounts/ClientLogin", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "Email=ada&Passwd=\(Self.password.replacingOccurrences(of: " ", with: "+"))"))
                let auth = try #require(String(buffer: login.body).split(separator: "\n").first { $0.hasPrefix("Auth=") }?.dropFirst(5))
                let ids = try await client.execute(
                    uri: "/api/greader/reader/api/0/stream/items/ids?s=feed%2Fbusiness&n=50000&output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)"])
                struct Refs: Decodable { var itemRefs: [Ref]; struct Ref: Decodable { var id: String } }
                #expect(try JSONDecoder().decode(Refs.self, from: Data(buffer: ids.body)).itemRefs.count == 10_000)
                let contents = try await client.execute(
                    uri: "/api/greader/reader/api/0/stream/contents/feed%2Fbusiness?n=5000&output=json", method: .get,
                    headers: [.authorization: "GoogleLogin auth=\(auth)"])
                struct Items: Decodable { var items: [Item]; struct Item: Decodable { var id: String } }
                #expect(try JSONDecoder().decode(Items.self, from: Data(buffer: contents.body)).items.count == 1_000)

                // The reader's lists: 50 rows a page, then "Older entries".
                let session = try await client.signIn(name: "ada", password: Self.password)
                let page = String(buffer: try await client.get("/reader/all", headers: session.pageHeaders).body)
                #expect(HTMLInspection.startTags("li", in: page).filter { $0.contains("reader-entry") }.count == 50)
                #expect(page.contains(#"id="reader-more""#))
            }
        }
    }

    @Test func passwordsKeepTheirRulesAndAreKeptAsBcryptAtCost12() async throws {
        #expect(throws: AccountError.self) { try Accounts.checkPassword("seven77") }
        #expect(throws: Never.self) { try Accounts.checkPassword("eight888") }
        #expect(throws: Never.self) { try Accounts.checkPassword(String(repeating: "a", count: 72)) }
        #expect(throws: AccountError.self) { try Accounts.checkPassword(String(repeating: "a", count: 73)) }
        // 72 bytes, not characters: bcrypt reads bytes, and ignores what is past the 72nd.
        #expect(throws: AccountError.self) { try Accounts.checkPassword(String(repeating: "é", count: 37)) }

        let store = try SQLiteStore.inMemoryDatabase()
        let accounts = Accounts(store: store, hasher: .bcrypt())
        _ = try await accounts.add(name: "ada", password: Self.password, isAdmin: false)
        let kept = try #require(try await store.credentials(name: "ada")?.passwordHash)
        #expect(kept.hasPrefix("$2b$12$") || kept.hasPrefix("$2y$12$") || kept.hasPrefix("$2a$12$"), "\(kept.prefix(7))")
        #expect(kept.count == 60)
        #expect(!kept.contains(Self.password))
    }
}
