import AsyncHTTPClient
import Foundation
import KioskDemo
import NIOCore
import Testing

@Suite struct FaultTests {
    @Test func serverErrorIs500InEachAPIsShape() async throws {
        try await DemoHarness.run { demo async throws in
            for source in DemoSource.allCases { await demo.control.setFault(.serverError, for: source) }
            let news = try await demo.get("/newsapi/v2/top-headlines?apiKey=demo")
            #expect(news.status == 500)
            #expect(news.json?["status"] as? String == "error")
            #expect(news.json?["code"] as? String == "unexpectedError")
            let joke = try await demo.get("/switter/api/joke", headers: [("x-device-uuid", "d")])
            #expect(joke.status == 500)
            #expect(joke.text == #"{"error":true,"reason":"No jokes found on the server"}"#)
            #expect(try await demo.get("/reuters/business.xml").status == 500)
            #expect(try await demo.get("/images/artwork/1/10x10bb.png").status == 500)

            await demo.control.setFault(.none, for: .business)
            #expect(try await demo.get("/reuters/business.xml").status == 200)
            #expect(try await demo.get("/facts.json").status == 500)
        }
    }

    @Test func slowBodySendsHeadersAtOnceThenTrickles() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.slowBody, for: .facts)
            let started = ContinuousClock.now
            let response = try await demo.client.execute(HTTPClientRequest(url: demo.url("/facts.json")), timeout: .seconds(10))
            #expect(response.status == .ok)
            // The facts' size depends on the server's port (its image URLs name it): about 2.6 KB.
            #expect((response.headers.first(name: "content-length").flatMap { Int($0) } ?? 0) > 2000)
            #expect(ContinuousClock.now - started < .seconds(5))  // the body itself takes minutes
            // Read for 1.6 s, then give up as a fetcher's deadline would.
            let received = try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask {
                    var received = 0
                    do {
                        for try await chunk in response.body { received += chunk.readableBytes }
                    } catch is CancellationError {}
                    return received
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(1600))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                let second = try await group.next() ?? nil
                return first ?? second ?? -1
            }
            // In 1.6 s only a handful of 8-byte pieces of the 3107 bytes can arrive.
            #expect(received > 0)
            #expect(received < 100)
        }
    }

    @Test func connectionResetIsAnErrorNotACleanEnd() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.connectionReset, for: .business)
            await #expect(throws: (any Error).self) {
                _ = try await demo.get("/reuters/business.xml", timeout: .seconds(10))
            }
            await demo.control.setFault(.none, for: .business)
            #expect(try await demo.get("/reuters/business.xml").status == 200)
        }
    }

    @Test func garbageBodyIs200WithBytesNoParserAccepts() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.garbageBody, for: .facts)
            let fetched = try await demo.get("/facts.json")
            #expect(fetched.status == 200)
            #expect(fetched.body.count == 4096)
            #expect((try? JSONSerialization.jsonObject(with: Data(fetched.body))) == nil)
            #expect(String(validating: fetched.body, as: UTF8.self) == nil)
        }
    }

    @Test func oversizedBodyStreamsFarMoreThanAnyCap() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.oversizedBody, for: .albums)
            let response = try await demo.client.execute(HTTPClientRequest(url: demo.url(DemoSource.albums.path)), timeout: .seconds(20))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "content-length") == nil)
            await #expect(throws: NIOTooManyBytesError.self) {
                _ = try await response.body.collect(upTo: 4 << 20)
            }
        }
    }

    @Test func oversizedBodyIsAboutSixtyFourMegabytes() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.oversizedBody, for: .images)
            let response = try await demo.client.execute(HTTPClientRequest(url: demo.url("/images/news/1/10x10bb.png")), timeout: .seconds(60))
            var total = 0
            for try await chunk in response.body { total += chunk.readableBytes }
            #expect(total == 64 << 20)
        }
    }

    @Test func redirectLoopPointsBackAtItself() async throws {
        try await DemoHarness.run(clientConfiguration: .init(redirectConfiguration: .disallow)) { demo async throws in
            await demo.control.setFault(.redirectLoop, for: .newsAPI)
            let path = "/newsapi/v2/top-headlines?category=science&apiKey=demo"
            let fetched = try await demo.get(path)
            #expect(fetched.status == 302)
            #expect(fetched.header("location") == demo.url(path))
        }
        try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.redirectLoop, for: .facts)
            await #expect(throws: HTTPClientError.redirectCycleDetected) {
                _ = try await demo.get("/facts.json")
            }
        }
    }

    @Test func tlsDowngradeSendsTheClientToHTTPSOnThePlainPort() async throws {
        try await DemoHarness.run(clientConfiguration: .init(redirectConfiguration: .disallow)) { demo async throws in
            await demo.control.setFault(.tlsDowngrade, for: .entertainment)
            let path = "/reuters/entertainment.xml?since=1"
            let fetched = try await demo.get(path)
            #expect(fetched.status == 301)
            let location = try #require(fetched.header("location").flatMap { URLComponents(string: $0) })
            let base = try #require(URLComponents(url: demo.base, resolvingAgainstBaseURL: false))
            // Same host, same (plain HTTP) port, same path and query; only the scheme says TLS.
            #expect(location.scheme == "https")
            #expect(location.host == base.host)
            #expect(location.port == base.port)
            #expect(location.path == "/reuters/entertainment.xml")
            #expect(location.query == "since=1")
            #expect(fetched.body.isEmpty)
        }
    }

    @Test func neverAnswerTimesOutTheClientAndTheServerStaysHealthy() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.neverAnswer, for: .jokes)
            let started = ContinuousClock.now
            await #expect(throws: HTTPClientError.deadlineExceeded) {
                _ = try await demo.get("/switter/api/joke", headers: [("x-device-uuid", "d")], timeout: .milliseconds(800))
            }
            #expect(ContinuousClock.now - started >= .milliseconds(700))
            #expect(await demo.control.requestCount(for: .jokes) == 1)
            // Other sources, and the same one once healed, answer normally.
            #expect(try await demo.get("/facts.json").status == 200)
            await demo.control.setFault(.none, for: .jokes)
            #expect(try await demo.get("/switter/api/joke", headers: [("x-device-uuid", "d")]).status == 200)
        }
    }

    /// Judged by what ended the hanging request rather than by seconds: the server's stop must
    /// end it, long before the client's own two-minute deadline would.
    @Test(.timeLimit(.minutes(5))) func serverStopsPromptlyWithARequestThatNeverGetsAnAnswer() async throws {
        let hanging = try await DemoHarness.run { demo async throws in
            await demo.control.setFault(.neverAnswer, for: .facts)
            let client = demo.client
            let url = demo.url("/facts.json")
            // A request left hanging while the server is cancelled.
            let request = Task { () -> (any Error)? in
                do {
                    _ = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(120))
                    return nil
                } catch {
                    return error
                }
            }
            while await demo.control.requestCount(for: .facts) == 0 { try await Task.sleep(for: .milliseconds(20)) }
            return request
        }
        // Whatever the stop gave it (an error answer, or its connection closed), not its deadline.
        let ended = await hanging.value
        #expect(
            (ended as? HTTPClientError) != .deadlineExceeded,
            "the server waited for the client to give up: \(String(describing: ended))")
    }
}
