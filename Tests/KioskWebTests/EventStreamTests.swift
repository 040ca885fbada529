import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import KioskSources
import KioskTesting
@testable import KioskWeb
import Testing

/// `/events` over real HTTP: a live server on a free port, read with AsyncHTTPClient as a
/// browser's EventSource would.
@Suite struct EventStreamTests {
    /// The text of a response body as it streams in.
    actor StreamText {
        private(set) var text = ""
        private(set) var ended = false
        func add(_ chunk: String) { text += chunk }
        func end() { ended = true }
    }

    /// Opens `/events` on the live server at `port`, reading into a ``StreamText`` until the task
    /// is cancelled; returns the response head's fields and the reader.
    static func open(
        _ http: HTTPClient, port: Int, query: String = "", headers: [(String, String)] = []
    ) async throws -> (status: UInt, contentType: String?, text: StreamText, reader: Task<Void, any Error>) {
        var request = HTTPClientRequest(url: "http://localhost:\(port)/events\(query)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await http.execute(request, timeout: .seconds(120))
        let text = StreamText()
        let reader = Task {
            for try await chunk in response.body { await text.add(String(buffer: chunk)) }
            await text.end()
        }
        return (response.status.code, response.headers.first(name: "content-type"), text, reader)
    }

    @Test func aChangePublishedAfterConnectingArrivesAndClosingForgetsTheClient() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, live in
                let port = try #require(client.port)
                try await waitUntilListening(live)
                // Each run numbers its events on from its start time; the page says where it drew.
                let base = await live.snapshot().sequence
                let http = HTTPClient(eventLoopGroupProvider: .singleton)
                do {
                    let (status, contentType, text, reader) = try await Self.open(http, port: port, query: "?since=\(base)")
                    #expect(status == 200)
                    #expect(contentType == "text/event-stream")
                    let connected = try await eventually { await text.text.hasPrefix("retry: 2000\n\n") }
                    try #require(connected, "the preamble arrives first")
                    #expect(await live.clientCount == 1)

                    await kiosk.hub.publish(.changed(.business, [SampleEntries.plain(5)]))
                    let arrived = try await eventually { await text.text.contains("event: changed\n") }
                    try #require(arrived, "the change arrives")
                    let body = await text.text
                    let frame = ParsedFrame(text: String(body.dropFirst("retry: 2000\n\n".count)))
                    #expect(frame.id == base + 1)
                    #expect(frame.event == "changed")
                    #expect(frame.json["source"] as? String == "business")
                    let rows = (frame.json["diff"] as? [String: Any])?["rows"] as? [String: String]
                    #expect(rows?.values.contains { $0.contains("Plain headline 5") } == true)

                    // The browser goes away: its subscription is cleaned up.
                    reader.cancel()
                    _ = await reader.result
                    try await http.shutdown()
                    let gone = try await eventually(within: .seconds(10)) { await live.clientCount == 0 }
                    #expect(gone, "closing the connection removes the subscriber")
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }

    @Test func aReconnectingBrowserResumesAfterItsLastEventID() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, live in
                let port = try #require(client.port)
                try await waitUntilListening(live)
                let base = await live.snapshot().sequence
                for number in 1...3 { await kiosk.hub.publish(.changed(.business, [SampleEntries.plain(number)])) }
                let relayed = try await eventually { await live.snapshot().sequence == base + 3 }
                try #require(relayed)
                let http = HTTPClient(eventLoopGroupProvider: .singleton)
                do {
                    // The header wins over ?since= (which the page it reloaded from would have said).
                    let (status, _, text, reader) = try await Self.open(
                        http, port: port, query: "?since=\(base)", headers: [("Last-Event-ID", "\(base + 1)")])
                    #expect(status == 200)
                    let replayed = try await eventually { await text.text.contains("id: \(base + 3)\n") }
                    try #require(replayed)
                    let body = await text.text
                    #expect(!body.contains("id: \(base + 1)\n"))
                    #expect(body.contains("id: \(base + 2)\n"))
                    let second = try #require(body.range(of: "id: \(base + 2)\n"))
                    let third = try #require(body.range(of: "id: \(base + 3)\n"))
                    #expect(second.lowerBound < third.lowerBound)
                    reader.cancel()
                    _ = await reader.result
                    try await http.shutdown()
                    let gone = try await eventually(within: .seconds(10)) { await live.clientCount == 0 }
                    #expect(gone)
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }
}
