import AsyncHTTPClient
import Foundation
import KioskModel
@testable import KioskSources
import Testing

/// SSRF: a source must not make Kiosk fetch from its own network, by a name that resolves
/// there, by a redirect, or by an IPv6 form that carries a private IPv4 address.
@Suite struct DestinationGuardTests {
    @Test(arguments: [
        "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::c0a8:101", "2002:7f00:1::", "2002:a9fe:a9fe::1",
        "::ffff:127.0.0.1", "::ffff:7f00:1", "::127.0.0.1", "::1", "::", "fe80::1", "fd00::1", "ff02::1",
        "[64:ff9b::7f00:1]", "64:ff9b:1::7f00:1", "2001:db8::1",
    ])
    func ipv6FormsOfPrivateAddressesAreNotPublic(_ host: String) {
        #expect(!PublicHost.isPublic(host))
    }

    /// Every block IANA's IPv4 and IPv6 special-purpose registries mark as not globally
    /// reachable, with site-local and multicast: main fetched from the documentation ranges
    /// (this test machine's own eth0 is 192.0.2.2), site-local IPv6 and a mapped form of them.
    @Test(arguments: [
        "192.0.2.2", "198.51.100.7", "203.0.113.9", "192.0.0.8", "192.88.99.1", "198.18.0.1", "198.19.255.255",
        "0.1.2.3", "100.64.0.1", "100.127.255.254", "172.31.0.1", "240.0.0.1", "255.255.255.255", "224.0.0.251",
        "fec0::1", "::ffff:c000:202", "[::ffff:192.0.2.2]", "::ffff:8.8.8.8", "100::1", "100:0:0:1::1", "2001::1",
        "2001:2::1", "2001:1ff::1", "3fff::1", "3fff:fff::1", "5f00::1", "fd00::2", "64:ff9b::c000:202",
        "2002:c000:202::1", "1::1", "4000::1", "::ffff:0:8.8.8.8",
    ])
    func specialPurposeAddressesAreNotPublic(_ host: String) {
        #expect(!PublicHost.isPublic(host))
    }

    @Test(arguments: [
        "64:ff9b::808:808", "2002:808:808::1", "2606:4700::1111", "93.184.216.34", "192.31.196.1", "192.52.193.1",
        "192.175.48.1", "198.20.0.1", "203.0.114.1", "2001:200::1", "2001:4860:4860::8888", "2620:4f:8000::1", "3fff:1000::1",
    ])
    func publicAddressesStayPublic(_ host: String) {
        #expect(PublicHost.isPublic(host))
    }

    /// The server's own addresses are refused even when public: as written, in another textual
    /// form, and as a name's answer; the connect guard's default policy refuses them too.
    @Test func thisServersOwnAddressesAreRefused() async throws {
        let own = HostAddresses { ["93.184.216.34", "2606:4700::1111"] }
        let guardian = DestinationGuard(resolve: Self.resolver, hostAddresses: own)
        for written in ["http://93.184.216.34/feed", "http://[2606:4700:0:0:0:0:0:1111]:8080/feed", "https://fine.example/"] {
            let why = await guardian.refusal(for: try #require(URL(string: written)))
            #expect(why?.contains("this server's own address") == true, "\(written): \(String(describing: why))")
        }
        #expect(!ConnectGuard.publicAddresses(excluding: own)("93.184.216.34", 80))
        #expect(ConnectGuard.publicAddresses(excluding: own)("93.184.216.35", 80))
        #expect(!ConnectGuard.publicAddresses(excluding: own)("2606:4700::1111", 443))
        #expect(ConnectGuard.publicAddresses(excluding: own)("2606:4700::1112", 443))
        let elsewhere = DestinationGuard(resolve: Self.resolver, hostAddresses: .none)
        #expect(await elsewhere.refusal(for: try #require(URL(string: "https://fine.example/"))) == nil)
    }

    @Test func theLiveListOfThisMachinesAddressesHasLoopback() {
        #expect(HostAddresses.live.contains("127.0.0.1") || HostAddresses.live.contains("::1"))
        #expect(!HostAddresses.live.contains("93.184.216.34"))
    }

    /// A resolver that knows a few names, as a hostile DNS server would answer.
    private static let resolver: DestinationGuard.Resolver = { host, _ in
        switch host {
        case "innocent.example": ["127.0.0.1"]
        case "mixed.example": ["93.184.216.34", "10.0.0.7"]
        case "metadata.example": ["169.254.169.254"]
        case "nat64.example": ["64:ff9b::7f00:1"]
        case "fine.example": ["93.184.216.34", "2606:4700::1111"]
        default: throw FetchError.network("unknown")
        }
    }

    @Test func aPublicLookingNameIsJudgedByEveryAddressItResolvesTo() async throws {
        let guardian = DestinationGuard(resolve: Self.resolver)
        for name in ["innocent.example", "mixed.example", "metadata.example", "nat64.example"] {
            let why = await guardian.refusal(for: try #require(URL(string: "http://\(name)/feed")))
            #expect(why?.contains("resolves to") == true, "\(name): \(String(describing: why))")
        }
        #expect(await guardian.refusal(for: try #require(URL(string: "https://fine.example/feed"))) == nil)
        #expect(await guardian.refusal(for: try #require(URL(string: "http://[::1]:8080/"))) != nil)
        #expect(await guardian.refusal(for: try #require(URL(string: "http://169.254.169.254/latest/meta-data"))) != nil)
        // The operator's choice, and the sources Kiosk itself reads, are allowed.
        #expect(await DestinationGuard(allowsPrivateHosts: true, resolve: Self.resolver)
            .refusal(for: try #require(URL(string: "http://innocent.example/"))) == nil)
        let trusted = try #require(URL(string: "http://127.0.0.1:8099/feed.xml"))
        #expect(await DestinationGuard(trusting: [trusted]).refusal(for: trusted) == nil)
    }

    /// `inside.example.` is `inside.example` written fully qualified: refused the same way, before
    /// the request and at connect time, whether or not a resolver answers for that spelling.
    @Test func aNameWithATrailingDotIsJudgedLikeTheNameWithout() async throws {
        let guardian = DestinationGuard(resolve: Self.resolver)
        for name in ["innocent.example.", "mixed.example.", "metadata.example.", "nat64.example.", "localhost.", "127.0.0.1."] {
            let url = try #require(URL(string: "http://\(name):8080/feed"))
            let why = await guardian.refusal(for: url)
            #expect(why != nil, "\(name) was let through")
        }
        #expect(await guardian.refusal(for: try #require(URL(string: "https://fine.example./feed"))) == nil)
        #expect(try await guardian.addresses(of: "innocent.example.", port: 80) == ["127.0.0.1"])
    }

    @Test func theSystemResolverAnswersForLocalhost() async throws {
        let addresses = try await DestinationGuard.system("localhost", 80)
        #expect(addresses.contains("127.0.0.1") || addresses.contains("::1"))
    }

    @Test func aNameThatResolvesToLoopbackIsNeverAsked() async throws {
        try await withGuardedFetcher { server, fetcher in
            let url = try #require(URL(string: "http://innocent.example:\(server.port)/feed"))
            let result = await outcome(fetcher, FetchRequest(url: url, timeout: .seconds(30)))
            guard case .failure(.refused(let why)) = result else {
                Issue.record("expected a refusal, got \(result)")
                return
            }
            #expect(why.contains("127.0.0.1"))
        }
    }

    @Test(arguments: [
        "http://127.0.0.1:PORT/image/secret", "http://[::1]:PORT/image/secret", "http://169.254.169.254/latest/meta-data/",
        "http://localhost:PORT/image/secret", "http://innocent.example:PORT/image/secret",
        "http://[64:ff9b::7f00:1]:PORT/image/secret",
    ])
    func aRedirectIntoThePrivateNetworkIsRefusedBeforeItIsFollowed(_ target: String) async throws {
        try await withGuardedFetcher { server, fetcher in
            // The trusted source (the sample server's own authority) redirects; the guard trusts
            // it under its public name only, so the hop to its loopback address is refused.
            let location = target.replacingOccurrences(of: "PORT", with: String(server.port))
            var components = try #require(URLComponents(string: "http://trusted.example:\(server.port)/redirect/to"))
            components.queryItems = [URLQueryItem(name: "url", value: location)]
            let start = try #require(components.url)
            let result = await outcome(fetcher, FetchRequest(url: start, timeout: .seconds(30)))
            guard case .failure(.refused) = result else {
                Issue.record("expected a refusal for \(location), got \(result)")
                return
            }
            #expect(await server.log.count("/image/secret") == 0, "the private address was never asked")
            #expect(await server.log.count("/redirect/to") == 1)
        }
    }

    @Test func aRedirectThatStaysPublicIsFollowed() async throws {
        try await withGuardedFetcher { server, fetcher in
            let start = try #require(URL(string: "http://trusted.example:\(server.port)/redirect/chain/2"))
            let result = await outcome(fetcher, FetchRequest(url: start, timeout: .seconds(30)))
            guard case .success(.fetched(let body)) = result else {
                Issue.record("expected a body, got \(result)")
                return
            }
            #expect(body.bytes == Array("arrived".utf8))
            #expect(body.finalURL.absoluteString == "http://trusted.example:\(server.port)/redirect/chain/0")
        }
    }

    /// A fetcher whose client connects `trusted.example` to the loopback test server (as if it
    /// were a public host), guarded with the hostile resolver above and trusting nothing else.
    private func withGuardedFetcher(_ body: (TestServer, HTTPFetcher) async throws -> Void) async throws {
        try await TestServer.run { server in
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            configuration.dnsOverride = ["trusted.example": "127.0.0.1"]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let resolver: DestinationGuard.Resolver = { host, port in
                host == "trusted.example" ? ["93.184.216.34"] : try await Self.resolver(host, port)
            }
            let fetcher = HTTPFetcher(client: client, destinations: DestinationGuard(resolve: resolver))
            do {
                try await body(server, fetcher)
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    private func outcome(_ fetcher: HTTPFetcher, _ request: FetchRequest) async -> Result<FetchResult, FetchError> {
        do { return .success(try await fetcher.fetch(request)) } catch { return .failure(error) }
    }
}
