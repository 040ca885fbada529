import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
@testable import KioskWeb
import NIOEmbedded
import Testing

/// `/metrics`: what Kiosk counts (checks per source, pages by route and status, event streams,
/// store writes), in Prometheus' text format, on a loopback listener of its own.
@Suite struct MetricsTests {
    /// The value of the sample `name{labels}` in `text` (labels in any order), or nil.
    private func value(_ name: String, _ labels: [String: String] = [:], in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            let parts = line.split(separator: " ")
            guard parts.count >= 2, let number = Double(parts[parts.count - 1]) else { continue }
            let head = String(parts[0])
            let found = labels.allSatisfy { head.contains("\($0.key)=\"\($0.value)\"") }
            if found { return number }
        }
        return nil
    }

    @Test func pagesAreCountedByRouteAndStatusNeverByPath() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                _ = try await client.get("/news")
                _ = try await client.get("/news")
                _ = try await client.get("/no/such/page/\(UUID().uuidString)")
                _ = try await client.get("/news/business/not-an-entry")
                let text = kiosk.dependencies.metrics.exposition()
                #expect(value("kiosk_http_requests_total", ["route": "/news", "method": "GET", "status": "200"], in: text) == 2)
                #expect(value("kiosk_http_requests_total", ["route": "NotFound", "status": "404"], in: text) == 1)
                #expect(value("kiosk_http_requests_total", ["route": "/news/{source}/{key}", "status": "404"], in: text) == 1)
                #expect(!text.contains("no/such/page"), "a path never becomes a label")
                #expect(value("kiosk_http_request_duration_seconds_count", ["route": "/news"], in: text) == 2)
            }
        }
    }

    @Test func checksAreCountedPerSourceWithTheirOutcomeAndTime() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { _, _ in
                let hub = kiosk.hub
                // The checks' metrics listen to the hub: wait for them, before publishing.
                let attached = try await eventually { await hub.isListening(SourceMetrics.hubName) }
                try #require(attached, "the checks' metrics never listened to the hub")
                await hub.publish(.checking(.business))
                await hub.publish(.changed(.business, [SampleEntries.plain(1)]))
                await hub.publish(.idle(.business))
                await hub.publish(.checking(.business))
                await hub.publish(.idle(.business))
                await hub.publish(.checking(.entertainment))
                await hub.publish(.failed(.entertainment, .fetch(.timeout)))
                await hub.publish(.idle(.entertainment))
                let feed = SourceID(rawValue: "feed-42")
                await hub.publish(.checking(feed))
                await hub.publish(.failed(feed, .fetch(.status(code: 500, message: nil, retryAfter: nil))))
                await hub.publish(.idle(feed))
                let metrics = kiosk.dependencies.metrics
                let counted = try await eventually {
                    value("kiosk_source_checks_total", ["source": "subscribed"], in: metrics.exposition()) == 1
                }
                try #require(counted)
                let text = metrics.exposition()
                #expect(value("kiosk_source_checks_total", ["source": "business", "outcome": "changed"], in: text) == 1)
                #expect(value("kiosk_source_checks_total", ["source": "business", "outcome": "unchanged"], in: text) == 1)
                #expect(value("kiosk_source_checks_total", ["source": "entertainment", "outcome": "failed"], in: text) == 1)
                #expect(value("kiosk_source_failures_total", ["source": "entertainment", "reason": "timeout"], in: text) == 1)
                #expect(value("kiosk_source_failures_total", ["source": "subscribed", "reason": "status"], in: text) == 1)
                #expect(value("kiosk_source_check_duration_seconds_count", ["source": "business"], in: text) == 2)
                #expect(!text.contains("feed-42"), "a reader's feeds share one label")
            }
        }
    }

    @Test func theListenerServesPrometheusTextWithTheOpenStreams() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { _, live in
                let (_, frames) = await live.subscribe(after: nil)
                let (_, reader) = FrameLog.collecting(frames)
                defer { reader.cancel() }
                kiosk.dependencies.metrics.storeWrite(.milliseconds(3))
                let router = MetricsServer.router(metrics: kiosk.dependencies.metrics, live: live)
                try await Application(router: router).test(.router) { client in
                    let response = try await client.execute(uri: "/metrics", method: .get)
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                    let text = String(buffer: response.body)
                    #expect(text.contains("# TYPE kiosk_sse_clients gauge"))
                    #expect(value("kiosk_sse_clients", in: text) == 1)
                    #expect(value("kiosk_store_write_duration_seconds_count", in: text) == 1)
                    #expect(value("kiosk_store_write_duration_seconds_bucket", ["le": "0.005"], in: text) == 1)
                }
            }
        }
    }

    /// The listener answers loopback names only: a page that points a name of its own at
    /// 127.0.0.1 (DNS rebinding) gets 421, not the figures. On main it answered any Host.
    @Test func theListenerAnswersLoopbackNamesOnly() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { _, live in
                let responder = MetricsServer.router(metrics: kiosk.dependencies.metrics, live: live).buildResponder()
                let cases: [(String, HTTPResponse.Status)] = [
                    ("localhost:9464", .ok), ("127.0.0.1:9464", .ok), ("[::1]:9464", .ok),
                    ("rebind.example:9464", .misdirectedRequest), ("192.168.1.5:9464", .misdirectedRequest),
                ]
                for (authority, status) in cases {
                    let request = Request(
                        head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/metrics"),
                        body: RequestBody(buffer: ByteBuffer()))
                    let response = try await responder.respond(
                        to: request, context: BasicRequestContext(source: .init(channel: NIOAsyncTestingChannel(), logger: .quiet)))
                    #expect(response.status == status, "\(authority)")
                }
            }
        }
    }

    @Test func theStoreTimesItsWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let metrics = KioskMetrics()
        let store = try SQLiteStore(path: directory.appendingPathComponent("kiosk.sqlite"), onWrite: metrics.storeWrite)
        _ = try await store.deviceID()
        #expect((value("kiosk_store_write_duration_seconds_count", in: metrics.exposition()) ?? 0) >= 1)
    }
}
