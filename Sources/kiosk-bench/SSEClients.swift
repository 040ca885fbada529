import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// `kiosk-bench sse-clients` (hidden): the client side of `kiosk-bench sse` in its own process, so
/// each side's memory is measured alone. It opens N event streams, says when all are subscribed,
/// then reports when each update reached each client, through files in `--directory`.
struct SSEClientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sse-clients",
        abstract: "The SSE benchmark's clients, in a process of their own (started by `kiosk-bench sse`).",
        shouldDisplay: false
    )

    @Option(help: "The server's port on 127.0.0.1.") var port: Int
    @Option(help: "Several servers' ports (replicas), comma-separated: the streams are spread over them in turn.")
    var ports: String?

    @Option(help: "Event streams to open.") var clients: Int
    @Option(help: "Updates to wait for.") var rounds: Int
    @Option(help: "Where to write the handshake files.") var directory: String
    @Option(help: "Connections opened at once.") var wave = 100
    @Option(help: "Seconds to wait for each step.") var timeout = 60.0

    func run() async throws {
        let limit = SSEProcess.raiseFileLimit()
        let folder = URL(fileURLWithPath: directory)
        let count = min(clients, SSEProcess.mostStreams(perStream: 1) ?? clients)
        let board = SSEArrivalBoard(clients: count, rounds: rounds)
        let spread = ports.map { $0.split(separator: ",").compactMap { Int($0) } } ?? []
        let fleet = SSEClientFleet(
            group: MultiThreadedEventLoopGroup.singleton, ports: spread.isEmpty ? [port] : spread, board: board)
        let before = SSEProcess.residentKiB() ?? 0
        let started = ContinuousClock.now
        let outcome = await fleet.connect(count: count, wave: wave, timeout: .seconds(timeout))
        let connectTime = Measure.seconds(ContinuousClock.now - started)
        let after = SSEProcess.residentKiB() ?? 0
        try SSEHandshake.write(
            SSEHandshake.Ready(
                requested: count, subscribed: outcome.subscribed, residentBeforeKiB: before, residentAfterKiB: after,
                fileLimit: limit?.soft ?? 0, connectSeconds: connectTime,
                error: outcome.error ?? (count < clients ? "limited to \(count) by this process's open-file limit" : nil)),
            to: SSEHandshake.readyFile(in: folder))
        for round in 0..<rounds {
            let arrivals = await board.waitForRound(round, expected: outcome.subscribed, timeout: .seconds(timeout))
            try SSEHandshake.write(SSEHandshake.Round(arrivals: arrivals), to: SSEHandshake.roundFile(round, in: folder))
        }
        await fleet.closeAll()
    }
}

/// Opens event streams to `/events` on 127.0.0.1 with bare SwiftNIO channels: one raw request
/// each, then only a scan of the bytes for the lines that matter.
final class SSEClientFleet: Sendable {
    private let group: any EventLoopGroup
    private let ports: [Int]
    private let board: SSEArrivalBoard
    private let channels = NIOLockedValueBox<[any Channel]>([])

    init(group: any EventLoopGroup, ports: [Int], board: SSEArrivalBoard) {
        self.group = group
        self.ports = ports
        self.board = board
    }

    /// Opens `count` streams, `wave` at a time, each wave subscribed before the next starts (the
    /// server's accept backlog is 256). Stops at the first failure (e.g. out of descriptors).
    func connect(count: Int, wave: Int, timeout: Duration) async -> (subscribed: Int, error: String?) {
        let addresses: [SocketAddress]
        do {
            addresses = try ports.map { try SocketAddress(ipAddress: "127.0.0.1", port: $0) }
        } catch {
            return (0, "\(error)")
        }
        var opened = 0
        while opened < count {
            let end = min(count, opened + max(1, wave))
            let futures = (opened..<end).map { index in
                open(index: index, to: addresses[index % addresses.count], port: ports[index % ports.count])
            }
            var failure: String?
            for (offset, future) in futures.enumerated() {
                do {
                    let channel = try await future.get()
                    channels.withLockedValue { $0.append(channel) }
                } catch {
                    failure = failure ?? "connection \(opened + offset + 1) failed: \(error)"
                }
            }
            if let failure {
                // Let the streams already open finish subscribing, so the count is final.
                try? await Task.sleep(for: .seconds(1))
                return (board.subscribedCount, failure)
            }
            let deadline = ContinuousClock.now + timeout
            while board.subscribedCount < end {
                if ContinuousClock.now > deadline || board.closedCount > 0 {
                    return (board.subscribedCount, "only \(board.subscribedCount) of \(end) streams subscribed (\(board.closedCount) closed)")
                }
                try? await Task.sleep(for: .milliseconds(1))
            }
            opened = end
        }
        return (board.subscribedCount, nil)
    }

    private func open(index: Int, to address: SocketAddress, port: Int) -> EventLoopFuture<any Channel> {
        let board = board
        return ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        SSEProbeHandler(index: index, board: board, port: port))
                }
            }
            .connect(to: address)
    }

    /// Closes every stream.
    func closeAll() async {
        let open = channels.withLockedValue { channels in
            defer { channels.removeAll() }
            return channels
        }
        for channel in open {
            try? await channel.close()
        }
    }
}

/// What every client reports, under one lock: subscriptions, closed streams and the instant each
/// `changed` event arrived at each client.
final class SSEArrivalBoard: Sendable {
    private struct State: Sendable {
        var subscribed = 0
        var closed = 0
        var bytes = 0
        /// `rounds × clients` instants (`CLOCK_MONOTONIC` ns), 0 while not arrived.
        var arrivals: [UInt64]
        var arrivedPerRound: [Int]
    }

    let clients: Int
    let rounds: Int
    private let state: NIOLockedValueBox<State>

    init(clients: Int, rounds: Int) {
        self.clients = clients
        self.rounds = rounds
        state = NIOLockedValueBox(
            State(arrivals: Array(repeating: 0, count: clients * rounds), arrivedPerRound: Array(repeating: 0, count: rounds)))
    }

    var subscribedCount: Int { state.withLockedValue { $0.subscribed } }
    var closedCount: Int { state.withLockedValue { $0.closed } }
    /// Bytes received by all clients so far (HTTP framing included).
    var bytesReceived: Int { state.withLockedValue { $0.bytes } }

    func received(bytes: Int) { state.withLockedValue { $0.bytes += bytes } }

    func subscribed() { state.withLockedValue { $0.subscribed += 1 } }
    func closed() { state.withLockedValue { $0.closed += 1 } }

    /// Client `client` received its `round`-th `changed` event (0-based) at `instant`.
    func arrived(client: Int, round: Int, at instant: UInt64) {
        guard round < rounds, client < clients else { return }
        state.withLockedValue { state in
            state.arrivals[round * clients + client] = instant
            state.arrivedPerRound[round] += 1
        }
    }

    /// Waits until `expected` clients have the `round`-th update (or `timeout`), then returns
    /// every client's arrival instant (0 = not arrived).
    func waitForRound(_ round: Int, expected: Int, timeout: Duration) async -> [UInt64] {
        let deadline = ContinuousClock.now + timeout
        while state.withLockedValue({ $0.arrivedPerRound[round] }) < expected, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        return state.withLockedValue { Array($0.arrivals[(round * clients)..<((round + 1) * clients)]) }
    }
}

/// One event-stream client: writes `GET /events`, then scans what comes back for the `retry:`
/// preamble (the server has subscribed it) and `event: changed` lines (an update arrived).
final class SSEProbeHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let index: Int
    private let board: SSEArrivalBoard
    private let port: Int
    private var scanner = SSELineScanner()
    private var isSubscribed = false
    private var changedSeen = 0

    init(index: Int, board: SSEArrivalBoard, port: Int) {
        self.index = index
        self.board = board
        self.port = port
    }

    func channelActive(context: ChannelHandlerContext) {
        // A returning browser: it already has its client cookie.
        let request =
            "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
            + "Cookie: kiosk_client=\(UUID().uuidString)\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = SSEProcess.monotonicNanoseconds()
        let buffer = unwrapInboundIn(data)
        board.received(bytes: buffer.readableBytes)
        let found = scanner.scan(buffer)
        if found.preamble, !isSubscribed {
            isSubscribed = true
            board.subscribed()
        }
        for _ in 0..<found.changed {
            board.arrived(client: index, round: changedSeen, at: now)
            changedSeen += 1
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        board.closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Finds lines starting with `retry: ` or `event: changed` in a byte stream split at arbitrary
/// points. Only the first bytes of each line are compared; the rest (the long `data:` line with
/// the rendered list) is skipped with `memchr`, so 10,000 clients cost little CPU to scan.
struct SSELineScanner {
    private static let preamble = Array("retry: ".utf8)
    private static let changed = Array("event: changed".utf8)
    private static let newline = UInt8(ascii: "\n")

    /// Still comparing the start of the current line.
    private var inPrefix = true
    private var position = 0
    private var preambleAlive = true
    private var changedAlive = true

    mutating func scan(_ buffer: ByteBuffer) -> (preamble: Bool, changed: Int) {
        var preamble = false
        var changed = 0
        buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var index = 0
            while index < bytes.count {
                if inPrefix {
                    let byte = bytes[index]
                    index += 1
                    if byte == Self.newline {
                        startLine()
                        continue
                    }
                    preambleAlive = preambleAlive && Self.preamble[position] == byte
                    changedAlive = changedAlive && Self.changed[position] == byte
                    position += 1
                    if preambleAlive, position == Self.preamble.count {
                        preamble = true
                        preambleAlive = false
                    }
                    if changedAlive, position == Self.changed.count {
                        changed += 1
                        changedAlive = false
                    }
                    if !preambleAlive, !changedAlive { inPrefix = false }
                    continue
                }
                guard let found = memchr(base + index, Int32(Self.newline), bytes.count - index) else {
                    index = bytes.count
                    break
                }
                index = base.distance(to: UnsafeRawPointer(found)) + 1
                startLine()
            }
        }
        return (preamble, changed)
    }

    private mutating func startLine() {
        inPrefix = true
        position = 0
        preambleAlive = true
        changedAlive = true
    }
}
