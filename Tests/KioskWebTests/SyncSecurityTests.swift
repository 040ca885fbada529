import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import KioskTesting
@testable import KioskWeb
import Testing

/// What one account may do to another's through the sync APIs: nothing, by any id. Revoked app
/// passwords stop at once; changes made through an API reach that user's open pages only.
@Suite struct SyncSecurityTests {
    private static let privateFeed: SourceID = "feed-alices-private"

    /// Alice (the first account, with a feed of her own and its entries) and Bob.
    private func accounts(_ kiosk: KioskHarness) async throws -> (alice: Account, bob: Account, alicesIDs: [Int64]) {
        let alice = try await kiosk.dependencies.accounts.add(name: "alice", password: "alice-password", isAdmin: true)
        let bob = try await kiosk.dependencies.accounts.add(name: "bob", password: "bob-password", isAdmin: false)
        let url = try #require(URL(string: "https://alice.example/private.xml"))
        try await kiosk.store.saveSubscriptions(
            [Subscription(id: Self.privateFeed, url: url, feedTitle: "Alice's", folder: "Secret")], user: alice.id)
        try await kiosk.store.saveSourceState(
            SourceState(entries: (1...5).map { Entry(id: "urn:a\($0)", title: "Private \($0)") }), for: Self.privateFeed)
        let ids = try await kiosk.store.readingList(EntryFilter(sources: [Self.privateFeed]), user: alice.id).map(\.id)
        #expect(ids.count == 5)
        return (alice, bob, ids)
    }

    private func login(_ client: any TestClientProtocol, _ name: String, _ password: String) async throws -> (auth: String, token: String) {
        let reply = try await client.execute(
            uri: "/api/greader/accounts/ClientLogin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: "Email=\(name)&Passwd=\(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"))
        let auth = String(try #require(String(buffer: reply.body).split(separator: "\n").first { $0.hasPrefix("Auth=") }?.dropFirst(5)))
        let token = try await call(client, auth, .get, "/reader/api/0/token")
        return (auth, String(buffer: token.body))
    }

    private func call(_ client: any TestClientProtocol, _ auth: String, _ method: HTTPRequest.Method, _ path: String, _ body: String? = nil)
        async throws -> TestResponse
    {
        var headers: HTTPFields = [.authorization: "GoogleLogin auth=\(auth)"]
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        return try await client.execute(uri: "/api/greader" + path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @Test func noAccountReachesAnothersEntriesFeedsOrFoldersThroughTheAPIs() async throws {
        try await withKioskApp { kiosk in
            let (alice, bobsAccount, alicesIDs) = try await accounts(kiosk)
            let bob = bobsAccount.id
            try await kiosk.run { client, _ in
                let bobsSession = try await login(client, "bob", "bob-password")
                let hexIDs = alicesIDs.map { "i=tag:google.com,2005:reader/item/" + String(format: "%.16llx", $0) }

                // Reading: ids, contents, stream contents, Atom.
                let ids = String(buffer: try await call(client, bobsSession.auth, .get, "/reader/api/0/stream/items/ids?n=1000&s=user/-/state/com.google/reading-list").body)
                for id in alicesIDs { #expect(!ids.contains("\"\(id)\"")) }
                let own = String(buffer: try await call(client, bobsSession.auth, .get, "/reader/api/0/stream/items/ids?s=feed/\(Self.privateFeed.rawValue)").body)
                #expect(own.contains(#""itemRefs":[]"#))
                let contents = String(buffer: try await call(
                    client, bobsSession.auth, .post, "/reader/api/0/stream/items/contents", (["T=\(bobsSession.token)"] + hexIDs).joined(separator: "&")).body)
                #expect(contents.contains(#""items":[]"#) && !contents.contains("Private"))
                let stream = String(buffer: try await call(client, bobsSession.auth, .get, "/reader/api/0/stream/contents/feed%2F\(Self.privateFeed.rawValue)").body)
                #expect(!stream.contains("Private"))
                #expect(try await call(client, bobsSession.auth, .get, "/reader/atom/feed%2F\(Self.privateFeed.rawValue)").status == .notFound)
                let lists = String(buffer: try await call(client, bobsSession.auth, .get, "/reader/api/0/subscription/list?output=json").body)
                    + String(buffer: try await call(client, bobsSession.auth, .get, "/reader/api/0/tag/list?output=json").body)
                #expect(!lists.contains(Self.privateFeed.rawValue) && !lists.contains("Secret"))

                // Changing: read, star, mark all, unsubscribe, rename, move.
                _ = try await call(client, bobsSession.auth, .post, "/reader/api/0/edit-tag",
                    (["T=\(bobsSession.token)"] + hexIDs + ["a=user/-/state/com.google/read", "a=user/-/state/com.google/starred"]).joined(separator: "&"))
                #expect(try await call(client, bobsSession.auth, .post, "/reader/api/0/mark-all-as-read", "T=\(bobsSession.token)&s=feed/\(Self.privateFeed.rawValue)").status == .notFound)
                #expect(try await call(client, bobsSession.auth, .post, "/reader/api/0/subscription/edit", "T=\(bobsSession.token)&s=feed/\(Self.privateFeed.rawValue)&ac=unsubscribe").status == .notFound)
                #expect(try await call(client, bobsSession.auth, .post, "/reader/api/0/subscription/edit", "T=\(bobsSession.token)&s=feed/\(Self.privateFeed.rawValue)&ac=edit&t=Mine").status == .notFound)
                _ = try await call(client, bobsSession.auth, .post, "/reader/api/0/rename-tag", "T=\(bobsSession.token)&s=user/-/label/Secret&dest=user/-/label/Open")
                _ = try await call(client, bobsSession.auth, .post, "/reader/api/0/disable-tag", "T=\(bobsSession.token)&s=user/-/label/Secret")
                _ = try await call(client, bobsSession.auth, .post, "/reader/api/0/mark-all-as-read", "T=\(bobsSession.token)&s=user/-/state/com.google/reading-list")

                // Fever, with Bob's key: Alice's items are not there to read or mark.
                let bobsApp = try await kiosk.dependencies.accounts.createAppPassword(name: "Reeder", user: bob)
                let bobKey = Insecure.MD5.hash(data: Data("bob:\(bobsApp.secret)".utf8)).map { String(format: "%02x", $0) }.joined()
                for body in ["mark=item&as=read&id=\(alicesIDs[0])", "mark=item&as=saved&id=\(alicesIDs[1])"] {
                    _ = try await client.execute(uri: "/api/fever?api", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                        body: ByteBuffer(string: "api_key=\(bobKey)&\(body)"))
                }
                let fever = String(buffer: try await client.execute(
                    uri: "/api/fever?api&items&with_ids=\(alicesIDs.map(String.init).joined(separator: ","))", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "api_key=\(bobKey)")).body)
                #expect(fever.contains(#""items":[]"#))

                // Alice's reader is as it was.
                let mine = try await kiosk.store.subscriptions(user: alice.id)
                #expect(mine.first { $0.id == Self.privateFeed }?.folder == "Secret")
                #expect(mine.first { $0.id == Self.privateFeed }?.displayName == "Alice's")
                #expect(try await kiosk.store.unreadCounts(user: alice.id)[Self.privateFeed] == 5)
                #expect(try await kiosk.store.starredCount(user: alice.id) == 0)
            }
        }
    }

    @Test func aRevokedAppPasswordIsRefusedAtOnce() async throws {
        try await withKioskApp { kiosk in
            let (_, bob, _) = try await accounts(kiosk)
            let app = try await kiosk.dependencies.accounts.createAppPassword(name: "iPhone", user: bob.id)
            try await kiosk.run { client, _ in
                let session = try await login(client, "bob", app.secret)
                #expect(try await call(client, session.auth, .get, "/reader/api/0/user-info").status == .ok)
                // The account password works too, and keeps working after the revocation.
                let other = try await login(client, "bob", "bob-password")
                try await kiosk.dependencies.accounts.revokeAppPassword(app.password.id, user: bob.id)
                let refused = try await call(client, session.auth, .get, "/reader/api/0/user-info")
                #expect(refused.status == .unauthorized)
                #expect(refused.headers[HTTPField.Name("X-Reader-Google-Bad-Token")!] == "true")
                let again = try await client.execute(
                    uri: "/api/greader/accounts/ClientLogin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "Email=bob&Passwd=\(app.secret)"))
                #expect(again.status == .unauthorized)
                #expect(try await call(client, other.auth, .get, "/reader/api/0/user-info").status == .ok)
            }
        }
    }

    @Test func apiChangesReachTheUsersOpenPagesAndNobodyElses() async throws {
        try await withKioskApp { kiosk in
            let (alice, bob, alicesIDs) = try await accounts(kiosk)
            try await kiosk.run { client, live in
                let (_, aliceFrames) = await live.subscribe(after: nil, user: alice.id)
                let (_, bobFrames) = await live.subscribe(after: nil, user: bob.id)
                let (aliceLog, aliceReader) = FrameLog.collecting(aliceFrames)
                let (bobLog, bobReader) = FrameLog.collecting(bobFrames)
                defer {
                    aliceReader.cancel()
                    bobReader.cancel()
                }
                let session = try await login(client, "alice", "alice-password")
                _ = try await call(client, session.auth, .post, "/reader/api/0/edit-tag",
                    "T=\(session.token)&i=\(alicesIDs[0])&a=user/-/state/com.google/read")
                let heard = try await eventually { await aliceLog.events.contains { $0.event == "reader" } }
                #expect(heard, "Alice's page hears of the read entry")
                let event = await aliceLog.events.first { $0.event == "reader" }
                #expect(event?.data?.contains(String(alicesIDs[0])) == true)
                try await Task.sleep(for: .milliseconds(200))
                #expect(await bobLog.events.allSatisfy { $0.event != "reader" }, "Bob's page hears nothing of Alice's")
            }
        }
    }

    @Test func credentialsAreNeverTakenFromAnAddress() async throws {
        try await withKioskApp { kiosk in
            let (_, bob, _) = try await accounts(kiosk)
            let app = try await kiosk.dependencies.accounts.createAppPassword(name: "Reeder", user: bob.id)
            try await kiosk.run { client, _ in
                let get = try await client.execute(
                    uri: "/api/greader/accounts/ClientLogin?Email=bob&Passwd=bob-password", method: .get)
                #expect(get.status != .ok)
                let inQuery = try await client.execute(
                    uri: "/api/greader/accounts/ClientLogin?Email=bob&Passwd=bob-password", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: ""))
                #expect(inQuery.status == .unauthorized)
                let key = Insecure.MD5.hash(data: Data("bob:\(app.secret)".utf8)).map { String(format: "%02x", $0) }.joined()
                let fever = try await client.execute(uri: "/api/fever?api&api_key=\(key)", method: .get)
                #expect(String(buffer: fever.body).contains(#""auth":0"#))
                let posted = try await client.execute(
                    uri: "/api/fever?api", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "api_key=\(key)"))
                #expect(String(buffer: posted.body).contains(#""auth":1"#))
            }
        }
    }

    @Test func aReadersOwnFeedIsHeardOfByItsFollowersOnly() async throws {
        try await withKioskApp { kiosk in
            let (alice, bob, _) = try await accounts(kiosk)
            try await kiosk.run { _, live in
                try await waitUntilListening(live)
                let (_, aliceFrames) = await live.subscribe(after: nil, user: alice.id)
                let (_, bobFrames) = await live.subscribe(after: nil, user: bob.id)
                let (aliceLog, aliceReader) = FrameLog.collecting(aliceFrames)
                let (bobLog, bobReader) = FrameLog.collecting(bobFrames)
                defer {
                    aliceReader.cancel()
                    bobReader.cancel()
                }
                await kiosk.hub.publish(.checking(Self.privateFeed))
                await kiosk.hub.publish(.failed(Self.privateFeed, .unreadable("token=secret in Alice's feed address")))
                await kiosk.hub.publish(.changed(.business, [SampleEntries.plain(1)]))
                let bothHeardNews = try await eventually {
                    let alices = await aliceLog.events
                    let bobs = await bobLog.events
                    return alices.contains { $0.event == "changed" } && bobs.contains { $0.event == "changed" }
                }
                #expect(bothHeardNews, "News is everyone's")
                #expect(await aliceLog.events.contains { $0.event == "failed" && $0.data?.contains(Self.privateFeed.rawValue) == true })
                let bobs = await bobLog.events.map(\.text).joined()
                #expect(!bobs.contains(Self.privateFeed.rawValue) && !bobs.contains("secret"), "Bob hears nothing of Alice's feed")

                // A page resuming from too far back gets a resync: Alice's shows her failing feed,
                // Bob's does not.
                let (_, bobAgain) = await live.subscribe(after: 1, user: bob.id)
                let (bobResync, bobResyncReader) = FrameLog.collecting(bobAgain)
                let (_, aliceAgain) = await live.subscribe(after: 1, user: alice.id)
                let (aliceResync, aliceResyncReader) = FrameLog.collecting(aliceAgain)
                defer {
                    bobResyncReader.cancel()
                    aliceResyncReader.cancel()
                }
                let resynced = try await eventually {
                    let bobs = await bobResync.events
                    let alices = await aliceResync.events
                    return bobs.contains { $0.event == "resync" } && alices.contains { $0.event == "resync" }
                }
                #expect(resynced)
                #expect(await aliceResync.events.first { $0.event == "resync" }?.data?.contains(Self.privateFeed.rawValue) == true)
                #expect(await bobResync.events.first { $0.event == "resync" }?.data?.contains(Self.privateFeed.rawValue) == false)
            }
        }
    }

    @Test func signingOutEndsThatSessionsEventStreamsOnly() async throws {
        try await withBroadcaster { b in
            let (_, leaving) = await b.live.subscribe(after: nil, user: UserID(2), session: "session-a")
            let (_, staying) = await b.live.subscribe(after: nil, user: UserID(2), session: "session-b")
            let (left, leftReader) = FrameLog.collecting(leaving)
            let (stayed, stayedReader) = FrameLog.collecting(staying)
            defer {
                leftReader.cancel()
                stayedReader.cancel()
            }
            await b.live.disconnect(session: "session-a")
            let ended = try await eventually { await left.ended }
            #expect(ended, "the signed-out session's stream ends")
            #expect(await !stayed.ended, "another session of the same user keeps its stream")
            #expect(await b.live.clientCount == 1)
        }
    }
}
