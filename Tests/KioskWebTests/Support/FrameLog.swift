import Foundation

@testable import KioskWeb

/// Collects the frames of one live-broadcaster client as they arrive.
actor FrameLog {
    private(set) var frames: [SSEFrame] = []
    /// Whether the stream ended (the client was dropped, unsubscribed or the broadcaster stopped).
    private(set) var ended = false

    private func add(_ frame: SSEFrame) { frames.append(frame) }
    private func end() { ended = true }

    /// The numbered frames' ids, in order.
    var ids: [UInt64] { frames.compactMap(\.id) }

    /// The numbered frames, parsed.
    var events: [ParsedFrame] { frames.filter { $0.id != nil }.map(ParsedFrame.init) }

    /// A log filled by a task reading `stream` (cancel the task to stop reading).
    static func collecting(_ stream: AsyncStream<SSEFrame>) -> (log: FrameLog, reader: Task<Void, Never>) {
        let log = FrameLog()
        let reader = Task {
            for await frame in stream { await log.add(frame) }
            await log.end()
        }
        return (log, reader)
    }
}

/// An event frame's fields.
struct ParsedFrame: Sendable {
    var id: UInt64?
    var event: String?
    var data: String?
    var text: String

    init(_ frame: SSEFrame) {
        self.init(text: String(buffer: frame.bytes))
    }

    init(text: String) {
        self.text = text
        for line in text.split(separator: "\n") {
            if line.hasPrefix("id: ") { id = UInt64(line.dropFirst(4)) }
            if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
        }
    }

    /// `data` as a JSON object.
    var json: [String: Any] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
            return [:]
        }
        return object
    }
}
