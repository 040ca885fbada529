import AsyncHTTPClient
import Foundation
import KioskCore
import KioskDemo
import KioskModel
@testable import KioskSources
import KioskTesting
import Testing

/// Every fault the sample server can play ends in the right typed error within the request's
/// timeout, and the engine reports it and carries on. Over real loopback HTTP.
@Suite struct SampleServerFaultTests {
    private func withServer(_ body: (DemoServer, URL, HTTPFetcher) async throws -> Void) async throws {
        try await withSampleSources { server, _, fetcher in try await body(server, await server.baseURL(), fetcher) }
    }

    /// What a fetch of the business feed under `fault` ends in, and how long it took. Faults that
    /// end in a timeout get a short one; the others a generous one, so a loaded machine (the
    /// first TLS handshake also loads the system's trust roots) cannot turn them into timeouts.
    private func fetch(_ fault: DemoFault, _ server: DemoServer, _ base: URL, _ fetcher: HTTPFetcher)
        async -> (Result<FetchResult, FetchError>, Duration)
    {
        await server.control.setFault(fault, for: .business)
        let timeout: Duration = fault == .slowBody || fault == .neverAnswer ? .seconds(2) : .seconds(10)
        let request = FetchRequest(
            url: base.appendingPathComponent("reuters/business.xml"), maxBytes: 4 << 20, timeout: timeout)
        let clock = ContinuousClock()
        let start = clock.now
        let result: Result<FetchResult, FetchError>
        do {
            result = .success(try await fetcher.fetch(request))
        } catch {
            result = .failure(error)
        }
        return (result, clock.now - start)
    }

    @Test func eachFaultEndsInItsTypedErrorWithinTheTimeout() async throws {
        try await withServer { server, base, fetcher in
            let expected: [(DemoFault, (Result<FetchResult, FetchError>) -> Bool)] = [
                (.slowBody, { $0 == .failure(.timeout) }),
                (.neverAnswer, { $0 == .failure(.timeout) }),
                (.serverError, { if case .failure(.status(500, _, _)) = $0 { true } else { false } }),
                (.connectionReset, { if case .failure(.network) = $0 { true } else { false } }),
                (.oversizedBody, { $0 == .failure(.tooLarge(limit: 4 << 20)) }),
                (.redirectLoop, { $0 == .failure(.tooManyRedirects) }),
                (.tlsDowngrade, { if case .failure(.tls) = $0 { true } else { false } }),
                // Garbage arrives fine over HTTP; it is the parser that refuses it (next test).
                (.garbageBody, { if case .success(.fetched) = $0 { true } else { false } }),
            ]
            // Every mode but `none`: a new mode must say what it ends in.
            #expect(Set(expected.map(\.0)) == Set(DemoFault.allCases).subtracting([.none]))
            for (fault, isRight) in expected {
                let (result, elapsed) = await fetch(fault, server, base, fetcher)
                #expect(isRight(result), "\(fault): got \(result)")
                #expect(elapsed < .seconds(20), "\(fault) took \(elapsed)")
            }
        }
    }

    @Test func aTLSDowngradeFailsTheHandshakeAndNeverFallsBackToPlainHTTP() async throws {
        try await withServer { server, base, fetcher in
            let (result, _) = await fetch(.tlsDowngrade, server, base, fetcher)
            guard case .failure(.tls(let why)) = result else {
                Issue.record("expected a TLS failure, got \(result)")
                return
            }
            #expect(why.contains("does not speak TLS"), "\(why)")
            #expect(FetchError.tls(why).description.hasPrefix("the secure connection failed"))
            // One plain request (answered 301), then only the TLS attempt, which is no HTTP request:
            // the fetcher did not retry the feed over plain HTTP.
            #expect(await server.control.requestCount(for: .business) == 1)
        }
    }

    @Test func theEngineReportsEveryFaultAndNeverStops() async throws {
        try await withServer { server, base, fetcher in
            let feed = PolledSource(
                id: .business, name: "Business", url: base.appendingPathComponent("reuters/business.xml"),
                interval: .milliseconds(100))
            let hub = EventHub()
            let (log, recorder) = await hub.record()
            let engine = Engine(
                feeds: [feed], fetcher: fetcher, hub: hub, backoff: Backoff(cap: .milliseconds(200), jitter: 0))
            let task = Task { try await engine.run() }
            defer {
                task.cancel()
                recorder.cancel()
            }
            #expect(await log.wait { $0.contains { $0.isChange } })
            for fault in [DemoFault.serverError, .garbageBody, .connectionReset, .redirectLoop] {
                let before = await log.failures(.business).count
                await server.control.setFault(fault, for: .business)
                #expect(await log.wait { events in events.filter { $0.source == .business && $0.isFailure }.count > before })
            }
            if case .parse? = await log.failures(.business).dropFirst().first {} else {
                Issue.record("garbage should fail in the parser: \(await log.failures(.business))")
            }
            await server.control.setFault(.none, for: .business)
            let changes = await log.changed(.business).count
            #expect(await log.wait { events in events.filter { $0.source == .business && $0.isChange }.count > changes })
            #expect(await hub.currentSnapshot().entries[.business]?.count == 20)
        }
    }

    @Test func fiftyConcurrentRequestsForOneImageReachTheServerOnce() async throws {
        try await withServer { server, base, fetcher in
            let pipeline = ImagePipeline(fetcher: fetcher)
            let path = "images/artwork/1440802426/300x300bb.png"
            let url = base.appendingPathComponent(path)
            let images = await withTaskGroup(of: CachedImage?.self) { group in
                for _ in 0..<50 {
                    group.addTask { try? await pipeline.image(for: url) }
                }
                var all: [CachedImage?] = []
                for await image in group { all.append(image) }
                return all
            }
            #expect(images.count == 50)
            #expect(images.allSatisfy { $0?.contentType == "image/png" })
            #expect(await server.control.requestCount(path: "/" + path) == 1)
        }
    }
}
