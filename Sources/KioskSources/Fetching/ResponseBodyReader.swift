import AsyncHTTPClient
import KioskModel
import NIOCore

/// Reads response bodies chunk by chunk with a byte cap, so no body is ever buffered unbounded.
enum ResponseBodyReader {
    /// The whole body, or ``FetchError/tooLarge(limit:)`` as soon as it passes `limit` bytes.
    ///
    /// Throwing drops the iterator, which makes AsyncHTTPClient cancel the request and close the
    /// connection: nothing more of an oversized body is read.
    static func collect(_ body: HTTPClientResponse.Body, limit: Int, expectedLength: Int?) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        // Trust the announced length only as a hint, and never beyond the cap.
        bytes.reserveCapacity(max(0, min(expectedLength ?? 0, limit, 4 << 20)))
        for try await chunk in body {
            guard chunk.readableBytes <= limit - bytes.count else {
                throw FetchError.tooLarge(limit: limit)
            }
            bytes.append(contentsOf: chunk.readableBytesView)
        }
        return bytes
    }

    /// At most the first `limit` bytes of the body; the rest is abandoned unread.
    static func prefix(_ body: HTTPClientResponse.Body, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in body {
            bytes.append(contentsOf: chunk.readableBytesView.prefix(max(0, limit - bytes.count)))
            if bytes.count >= limit { break }
        }
        return bytes
    }
}
