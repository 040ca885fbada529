import AsyncHTTPClient
import Foundation
import KioskModel
import KioskSources
import NIOCore
import NIOPosix
import Testing

/// SSRF at connect time: the guarded client connects only through ``ConnectGuard``, which judges
/// the addresses it resolves *now* and the address it actually connected to, so DNS rebinding
/// and redirects into the private network fail even when the check before the request passed
/// (or is not there). Loopback only: the guard's `allows` lets one test server's port pass as
/// if it were a public address.
@Suite struct ConnectGuardTests {
    /// Names and how many times each was looked up, as a hostile DNS server would answer.
    actor Lookups {
        private var counts: [String: Int] = [:]

        /// How many times `host` was asked for.
        func count(_ host: String) -> Int { counts[host] ?? 0 }

        /// `host`'s answer on its n-th lookup: `rebind.example` and `img.example` are public the
        /// first time and loopback after; `public.example` is the test server (loopback);
        /// `intranet.example` is loopback; `metadata.example` is the cloud metadata address.
        func answer(_ host: String) throws -> [String] {
            counts[host, default: 0] += 1
            switch host {
            case "rebind.example", "img.example": return counts[host] == 1 ? ["93.184.216.34"] : ["127.0.0.1"]
            case "public.example", "trusted.example", "intranet.example": return ["127.0.0.1"]
            case "metadata.example": return ["169.254.169.254"]
            default: throw FetchError.network("\(host) does not resolve")
            }
        }
    }

    // MARK: refused

    @Test func dnsRebindingBetweenTheCheckAndTheConnectionIsRefused() async throws {
        try await withClients(allowingTheServer: false) { server, clients, lookups in
            // The check before the request sees 93.184.216.34; the guard, asking again, 127.0.0.1.
            let url = try #require(URL(string: "http://rebind.example:\(server.port)/feed"))
            let result = await outcome(clients.fetcher(), url)
            guard case .failure(.refused(let why)) = result else {
                Issue.record("expected a refusal, got \(result)")
                return
            }
            #expect(why.contains("rebind.example") && why.contains("when connecting"), "\(why)")
            #expect(await lookups.count("rebind.example") == 2, "checked before the request, then at connect")
            #expect(await server.log.count("/feed") == 0, "the loopback server received nothing")
        }
    }

    @Test(arguments: ["intranet.example", "metadata.example"])
    func aNameResolvingToAPrivateAddressIsRefusedWithoutThePreCheck(_ name: String) async throws {
        try await withClients(allowingTheServer: false) { server, clients, _ in
            let fetcher = HTTPFetcher(client: clients.guarded, destinations: nil)
            let url = try #require(URL(string: "http://\(name):\(server.port)/feed"))
            let result = await outcome(fetcher, url)
            guard case .failure(.refused) = result else {
                Issue.record("expected a refusal, got \(result)")
                return
            }
            #expect(await server.log.count("/feed") == 0)
        }
    }

    @Test(arguments: [
        "http://127.0.0.1:SECRET/image/secret", "http://[::1]:SECRET/image/secret",
        "http://169.254.169.254/latest/meta-data/", "http://intranet.example:SECRET/image/secret",
    ])
    func aRedirectChainIntoThePrivateNetworkIsRefusedAtConnect(_ target: String) async throws {
        try await TestServer.run { secret in
            try await withClients { server, clients, _ in
                // No check before the request: the connect guard alone stands in the way.
                let fetcher = HTTPFetcher(client: clients.guarded, destinations: nil)
                let final = target.replacingOccurrences(of: "SECRET", with: String(secret.port))
                let second = try redirect(server, to: final)
                let start = try redirect(server, to: second.absoluteString)
                let result = await outcome(fetcher, start)
                guard case .failure(.refused) = result else {
                    Issue.record("expected a refusal for \(final), got \(result)")
                    return
                }
                #expect(await server.log.count("/redirect/to") == 2, "both public hops were followed")
                #expect(await secret.log.count("/image/secret") == 0, "the private server was never asked")
                #expect(await server.log.count("/image/secret") == 0)
            }
        }
    }

    // MARK: allowed

    @Test func allowedTrafficFlowsThroughTheGuardAndReusesItsConnection() async throws {
        try await withClients { server, clients, lookups in
            let fetcher = HTTPFetcher(client: clients.guarded, destinations: nil)
            let url = try #require(URL(string: "http://public.example:\(server.port)/plain"))
            for _ in 0..<3 {
                let result = await outcome(fetcher, url)
                guard case .success(.fetched(let body)) = result else {
                    Issue.record("expected a body, got \(result)")
                    return
                }
                #expect(body.bytes == Array(TestServer.feedXML.utf8))
            }
            #expect(await server.log.count("/plain") == 3)
            // The guard resolves once per connection it makes: one connection, kept alive.
            #expect(await lookups.count("public.example") == 1)
        }
    }

    @Test func aLargeBodyCrossesTheGuardWhole() async throws {
        try await withClients { server, clients, _ in
            let fetcher = HTTPFetcher(client: clients.guarded, destinations: nil)
            let url = try #require(URL(string: "http://public.example:\(server.port)/huge"))
            let result = await outcome(fetcher, url, maxBytes: 6 << 20, timeout: .seconds(30))
            guard case .success(.fetched(let body)) = result else {
                Issue.record("expected a body, got \(result)")
                return
            }
            #expect(body.bytes.count == 5 << 20)
            #expect(body.bytes.allSatisfy { $0 == 0x61 })
        }
    }

    @Test func aSlowReaderGetsEveryByteThroughTheGuard() async throws {
        try await withClients { server, clients, _ in
            // Reading slowly fills the socket buffers: the guard must stop reading from the
            // server while the client is not writable, then resume, losing nothing.
            let request = HTTPClientRequest(url: "http://public.example:\(server.port)/huge")
            let response = try await clients.guarded.execute(request, timeout: .seconds(60))
            #expect(response.status == .ok)
            var received = 0
            var chunks = 0
            for try await chunk in response.body {
                received += chunk.readableBytes
                chunks += 1
                if chunks <= 20 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(received == 5 << 20)
        }
    }

    @Test func concurrentFetchesThroughTheGuardAllArrive() async throws {
        try await withClients { server, clients, _ in
            let fetcher = HTTPFetcher(client: clients.guarded, destinations: nil)
            let url = try #require(URL(string: "http://public.example:\(server.port)/image/c?size=200000"))
            let sizes = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        guard case .success(.fetched(let body)) = await outcome(fetcher, url) else { return -1 }
                        return body.bytes.count
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sizes == Array(repeating: 200_000, count: 8))
        }
    }

    @Test func aTrustedAuthorityIsExemptAtConnectToo() async throws {
        try await TestServer.run { server in
            let trusted = try #require(URL(string: "http://trusted.example:\(server.port)/"))
            let lookups = Lookups()
            // Nothing but the trust lets 127.0.0.1 through here.
            let clients = try await FetchClients.start(trusting: [trusted], resolve: { host, _ in try await lookups.answer(host) })
            try await using(clients) {
                let fetcher = HTTPFetcher(client: clients.guarded, destinations: nil)
                let ok = await outcome(fetcher, try #require(URL(string: "http://trusted.example:\(server.port)/plain")))
                guard case .success(.fetched) = ok else {
                    Issue.record("expected a body, got \(ok)")
                    return
                }
                // The same address by another name is not trusted.
                let other = await outcome(fetcher, try #require(URL(string: "http://public.example:\(server.port)/feed")))
                guard case .failure(.refused) = other else {
                    Issue.record("expected a refusal, got \(other)")
                    return
                }
                #expect(await server.log.count("/feed") == 0)
            }
        }
    }

    @Test func theFetcherSkipsTheProxyHopForTrustedSourcesAndAllowedPrivateFeeds() async throws {
        try await TestServer.run { server in
            let trusted = try server.url("/plain")
            let clients = try await FetchClients.start(trusting: [trusted])
            try await using(clients) {
                // With the guard gone, only the direct client can still fetch anything.
                await clients.connectGuard.shutdown()
                guard case .success(.fetched) = await outcome(clients.fetcher(), trusted) else {
                    Issue.record("the trusted source was not fetched directly")
                    return
                }
                // The operator's choice for feeds: private hosts allowed, nothing to check.
                let feed = try server.url("/feed")
                guard case .success(.fetched) = await outcome(clients.fetcher(allowsPrivateHosts: true), feed) else {
                    Issue.record("the allowed private feed was not fetched directly")
                    return
                }
                guard case .failure = await outcome(HTTPFetcher(client: clients.guarded), feed) else {
                    Issue.record("the guarded client connected without its guard")
                    return
                }
            }
        }
    }

    @Test func aConnectionRefusedBehindTheGuardIsANetworkErrorNotARefusal() async throws {
        let closed = try await TestServer.run { $0.port }  // stopped: nothing listens there now
        let clients = try await FetchClients.start(
            resolve: { _, _ in ["127.0.0.1"] }, allows: { address, port in address == "127.0.0.1" && port == closed })
        try await using(clients) {
            let url = try #require(URL(string: "http://public.example:\(closed)/feed"))
            let result = await outcome(HTTPFetcher(client: clients.guarded), url)
            guard case .failure(.network(let why)) = result else {
                Issue.record("expected a network error, got \(result)")
                return
            }
            #expect(why == "connection refused")
        }
    }

    /// main fetched from this machine's own interface address (here 192.0.2.2) and handed back
    /// what a service listening on every interface answered. Refused before the request and, with
    /// no check before it, by the guard alone; the service receives nothing.
    @Test func theServersOwnInterfaceAddressesAreRefused() async throws {
        let own = HostAddresses.interfaceAddresses().filter { address in
            PublicHost.addressBytes(address)?.count == 4 && !address.hasPrefix("127.")
        }
        try await TestServer.run(host: "0.0.0.0") { server in
            let clients = try await FetchClients.start()
            try await using(clients) {
                for address in own {
                    let url = try #require(URL(string: "http://\(address):\(server.port)/feed"))
                    for fetcher in [clients.fetcher(), HTTPFetcher(client: clients.guarded, destinations: nil)] {
                        let result = await outcome(fetcher, url)
                        guard case .failure(.refused) = result else {
                            Issue.record("\(address) (this machine's own) was not refused: \(result)")
                            continue
                        }
                    }
                }
                #expect(await server.log.count("/feed") == 0, "the service on every interface received nothing")
            }
        }
    }

    /// A port nothing listens on and one whose service hangs up at once read the same to the
    /// reader (main said "connection refused" and "the server closed the connection", a port
    /// scanner's answer).
    @Test func aClosedPortAndAnOpenOneThatHangsUpLookTheSame() async throws {
        let closed = try await TestServer.run { $0.port }  // stopped: nothing listens there now
        try await HangUpListener.run { open in
            let clients = try await FetchClients.start(
                resolve: { _, _ in ["127.0.0.1"] }, hostAddresses: .none,
                allows: { address, port in address == "127.0.0.1" && (port == closed || port == open) })
            try await using(clients) {
                // The check before the request sees a public answer, as for any public host.
                let destinations = DestinationGuard(resolve: { _, _ in ["93.184.216.34"] }, hostAddresses: .none)
                let fetcher = HTTPFetcher(client: clients.direct, guardedClient: clients.guarded, destinations: destinations)
                let refused = await outcome(fetcher, try #require(URL(string: "http://public.example:\(closed)/feed")))
                let hungUp = await outcome(fetcher, try #require(URL(string: "http://public.example:\(open)/feed")))
                #expect(refused == .failure(.network("could not connect to public.example")))
                #expect(hungUp == refused)
            }
        }
    }

    // MARK: images

    @Test func theImagePipelineIsGuardedAtConnect() async throws {
        try await withClients(allowingTheServer: false) { server, clients, _ in
            // The fetcher the application gives its image pipeline.
            let pipeline = ImagePipeline(fetcher: clients.fetcher())
            let rebinding = try #require(URL(string: "http://img.example:\(server.port)/image/secret"))
            let result = await imageOutcome(pipeline, rebinding)
            guard case .failure(.fetch(.refused)) = result else {
                Issue.record("expected a refusal, got \(result)")
                return
            }
            #expect(await server.log.count("/image/secret") == 0)
        }
    }

    @Test func anAllowedImageLoadsThroughTheGuard() async throws {
        try await withClients { server, clients, _ in
            // An allowed image still loads through the guard.
            let allowed = try #require(URL(string: "http://public.example:\(server.port)/image/fine?size=3000"))
            let image = try await ImagePipeline(fetcher: HTTPFetcher(client: clients.guarded)).image(for: allowed)
            #expect(image.bytes.count == 3000)
        }
    }

    // MARK: helpers

    /// Clients whose guard resolves with ``Lookups``; with `allowingTheServer`, it treats
    /// 127.0.0.1 on the test server's port (only) as a public address, else it has the real
    /// policy (public addresses only).
    private func withClients(
        allowingTheServer: Bool = true, _ body: (TestServer, FetchClients, Lookups) async throws -> Void
    ) async throws {
        try await TestServer.run { server in
            let lookups = Lookups()
            let port = server.port
            let allows: ConnectGuard.AddressPolicy = { address, to in
                PublicHost.isPublic(address) || (allowingTheServer && address == "127.0.0.1" && to == port)
            }
            let clients = try await FetchClients.start(
                resolve: { host, _ in try await lookups.answer(host) }, allows: allows)
            try await using(clients) { try await body(server, clients, lookups) }
        }
    }

    private func using(_ clients: FetchClients, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            try? await clients.shutdown()
            throw error
        }
        try await clients.shutdown()
    }

    /// `server`'s `/redirect/to?url=` on the public-looking name.
    private func redirect(_ server: TestServer, to location: String) throws -> URL {
        var components = try #require(URLComponents(string: "http://public.example:\(server.port)/redirect/to"))
        components.queryItems = [URLQueryItem(name: "url", value: location)]
        return try #require(components.url)
    }
}

private func outcome(
    _ fetcher: HTTPFetcher, _ url: URL, maxBytes: Int = 1 << 20, timeout: Duration = .seconds(10)
) async -> Result<FetchResult, FetchError> {
    do {
        return .success(try await fetcher.fetch(FetchRequest(url: url, maxBytes: maxBytes, timeout: timeout)))
    } catch {
        return .failure(error)
    }
}

private func imageOutcome(_ pipeline: ImagePipeline, _ url: URL) async -> Result<CachedImage, ImageError> {
    do {
        return .success(try await pipeline.image(for: url))
    } catch {
        return .failure(error)
    }
}

/// A TCP listener on loopback that accepts every connection and closes it at once: an open port
/// whose service speaks no HTTP.
private enum HangUpListener {
    final class HangUp: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        func channelActive(context: ChannelHandlerContext) { context.close(promise: nil) }
    }

    static func run<Value: Sendable>(_ body: (Int) async throws -> Value) async throws -> Value {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(HangUp()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            let value = try await body(try #require(listener.localAddress?.port))
            try? await listener.close()
            return value
        } catch {
            try? await listener.close()
            throw error
        }
    }
}
