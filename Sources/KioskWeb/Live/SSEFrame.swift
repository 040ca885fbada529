import Foundation
import Hummingbird
import KioskStore

/// One server-sent event, encoded once and written to every client as the same bytes.
public struct SSEFrame: Sendable {
    /// The live sequence number (`id:`), which a reconnecting client sends back as `Last-Event-ID`;
    /// nil for comments such as heartbeats.
    public let id: UInt64?
    public let bytes: ByteBuffer
    /// Who may see it: some users' pages (their reader, what they opened, their own feeds'
    /// checks), or nil for everyone (the News sources).
    public let audience: Set<UserID>?

    /// `event`, numbered `id`, for `audience`. Without an id (replicas' activity, which no log
    /// numbers) the browser's `Last-Event-ID` stays where it was.
    init(id: UInt64?, _ event: LiveEvent, audience: Set<UserID>? = nil) {
        self.id = id
        self.audience = audience
        let idLine = id.map { "id: \($0)\n" } ?? ""
        bytes = ByteBuffer(string: "\(idLine)event: \(event.name.rawValue)\ndata: \(event.json)\n\n")
    }

    /// Whether `user`'s pages get it.
    func isFor(_ user: UserID) -> Bool { audience.map { $0.contains(user) } ?? true }

    private init(comment: String) {
        id = nil
        audience = nil
        bytes = ByteBuffer(string: ": \(comment)\n\n")
    }

    /// Keeps idle connections open through proxies and lets the server notice dead ones.
    static let heartbeat = SSEFrame(comment: "heartbeat")

    /// Sent first: how long the browser waits before reconnecting.
    static let preamble = SSEFrame(retryMilliseconds: 2000)

    private init(retryMilliseconds: Int) {
        id = nil
        audience = nil
        bytes = ByteBuffer(string: "retry: \(retryMilliseconds)\n\n")
    }
}
