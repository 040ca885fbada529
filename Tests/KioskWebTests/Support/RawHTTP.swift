import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes on a plain TCP socket, for what no HTTP client sends: HTTP/1.0, a request without Host,
/// a malformed request line. The blocking reads run on a thread of their own, so they never hold
/// one of the few threads Swift concurrency (and the server under test) runs on.
enum RawHTTP {
    struct Reply: Sendable {
        /// Everything read.
        var text: String
        /// Whether the server closed the connection (EOF) before the wait ended.
        var closed: Bool

        /// The status line.
        var statusLine: String { text.components(separatedBy: "\r\n").first ?? "" }

        /// The first value of the header `name` in the first answer (case-insensitive); nil when absent.
        func header(_ name: String) -> String? {
            let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
            for line in head.components(separatedBy: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `host:port`, sends `request`, and reads until the server closes the connection,
    /// `until` is in what was read, or `wait` passes.
    static func exchange(
        _ request: String, host: String = "localhost", port: Int, until: String? = nil, wait: Duration = .seconds(5)
    ) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try blockingExchange(request, host: host, port: port, until: until, wait: wait) })
            }
            thread.start()
        }
    }

    private static func blockingExchange(_ request: String, host: String, port: Int, until: String?, wait: Duration) throws
        -> Reply
    {
        let fd = try connectedSocket(host: host, port: port)
        defer { close(fd) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            sent += count
        }
        let deadline = ContinuousClock.now.advanced(by: wait)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            if let until, String(decoding: received, as: UTF8.self).contains(until) { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let milliseconds = max(1, Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return Reply(text: String(decoding: received, as: UTF8.self), closed: true) }
            received += buffer[0..<count]
        }
        return Reply(text: String(decoding: received, as: UTF8.self), closed: false)
    }

    /// What a trickling client saw: how many bytes of `rest` it sent, and whether the server
    /// closed the connection (before `limit` passed).
    struct Trickle: Sendable {
        var sent: Int
        var closed: Bool
    }

    /// Connects, sends `prefix` at once, then `rest` one byte every `every`, until all is sent,
    /// the server closes the connection, or `limit` passes; what the server says is read and
    /// dropped meanwhile.
    static func trickle(_ prefix: String, rest: [UInt8], port: Int, every: Duration, limit: Duration) async throws -> Trickle {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try blockingTrickle(prefix, rest: rest, port: port, every: every, limit: limit) })
            }
            thread.start()
        }
    }

    private static func blockingTrickle(_ prefix: String, rest: [UInt8], port: Int, every: Duration, limit: Duration) throws
        -> Trickle
    {
        let fd = try connectedSocket(host: "localhost", port: port)
        defer { close(fd) }
        #if canImport(Glibc)
        let noSignal = Int32(MSG_NOSIGNAL)
        #else
        let noSignal: Int32 = 0
        #endif
        let head = Array(prefix.utf8)
        guard head.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, noSignal) }) == head.count else {
            throw Failure(description: "send failed: errno \(errno)")
        }
        let deadline = ContinuousClock.now.advanced(by: limit)
        let pause = Int32(every.components.seconds * 1_000 + every.components.attoseconds / 1_000_000_000_000_000)
        var sent = 0
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, max(1, pause)) > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return Trickle(sent: sent, closed: true) }
                continue
            }
            guard sent < rest.count else { continue }
            let byte = [rest[sent]]
            guard byte.withUnsafeBytes({ send(fd, $0.baseAddress, 1, noSignal) }) == 1 else {
                return Trickle(sent: sent, closed: true)  // reset by the server
            }
            sent += 1
        }
        return Trickle(sent: sent, closed: false)
    }

    private static func connectedSocket(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if fd >= 0 {
                if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
                close(fd)
            }
            candidate = address.pointee.ai_next
        }
        throw Failure(description: "cannot connect to \(host):\(port)")
    }
}
