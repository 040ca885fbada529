import Foundation
import Hummingbird
import KioskStore
import Testing

@testable import KioskWeb

/// The typed live events: their names are the ones the page listens for, their JSON is what
/// Assets/app.js reads, and the ones replicas pass through the shared log read back as sent.
@Suite struct LiveEventTests {
    static let appScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/KioskWeb/Assets/app.js")

    @Test func everyEventIsOneThePageListensFor() throws {
        let script = try String(contentsOf: Self.appScript, encoding: .utf8)
        for name in LiveEvent.Name.allCases {
            #expect(script.contains("on(\"\(name.rawValue)\""), "app.js does not listen for \(name.rawValue)")
        }
    }

    @Test func theJSONIsWhatTheScriptReads() {
        #expect(
            LiveEvent.reader(ReaderMessage(kind: .starred, ids: [3, 1], value: true)).json
                == #"{"ids":[3,1],"kind":"starred","value":true}"#)
        #expect(LiveEvent.opened(OpenedMessage(title: "A & B", path: "/news/1")).json == #"{"path":"/news/1","title":"A & B"}"#)
        #expect(LiveEvent.activity(ActivityMessage(source: "business", checking: true)).json == #"{"checking":true,"source":"business"}"#)
        let frame = SSEFrame(id: 7, .activity(ActivityMessage(source: "business", checking: false)), audience: [.owner])
        #expect(String(buffer: frame.bytes) == "id: 7\nevent: activity\ndata: {\"checking\":false,\"source\":\"business\"}\n\n")
        #expect(frame.isFor(.owner))
    }

    @Test(arguments: [ReaderMessage.Kind.read, .starred, .subscriptions])
    func readerChangesReadBackAsSent(kind: ReaderMessage.Kind) throws {
        let sent = ReaderMessage(kind: kind, ids: [1, 2, 3], value: kind != .read)
        let event = LiveEvent.reader(sent)
        guard case .reader(let received)? = LiveEvent(shared: event.name.rawValue, json: event.json) else {
            Issue.record("a reader change did not read back")
            return
        }
        #expect(received == sent)
    }

    @Test func anOpenedHeadlineReadsBackAsSent() {
        let sent = OpenedMessage(title: "Markets \"rally\" <again>", path: "/news/business/42")
        let event = LiveEvent.opened(sent)
        guard case .opened(let received)? = LiveEvent(shared: event.name.rawValue, json: event.json) else {
            Issue.record("an opened headline did not read back")
            return
        }
        #expect(received == sent)
    }

    @Test(arguments: [
        ("changed", #"{"source":"business"}"#), ("resync", "{}"), ("activity", #"{"source":"x","checking":true}"#),
        ("reader", #"{"kind":"deleted","ids":[],"value":true}"#), ("reader", "not json"), ("opened", #"{"title":1}"#),
        ("", "{}"),
    ])
    func anythingElseFromTheLogIsNoEvent(name: String, json: String) {
        #expect(LiveEvent(shared: name, json: json) == nil)
    }

    @Test func aLongMarkAllReadCarriesTheFirst2000Ids() {
        let message = ReaderMessage(kind: .read, ids: Array(1...5_000), value: true)
        #expect(message.ids.count == 2_000)
        #expect(message.ids.last == 2_000)
    }
}
