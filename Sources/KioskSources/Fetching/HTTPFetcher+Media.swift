import AsyncHTTPClient
import Foundation
import KioskModel
import NIOCore
import NIOHTTP1

/// A media file being streamed from its publisher for the media proxy: the answer's head, and
/// its body as it arrives. There is no size cap (an episode may be a gigabyte) and no deadline:
/// the media clients (``FetchClients/mediaFetcher()``) let a stream go after 30 s without a byte,
/// whether the publisher fell silent or the player stopped reading (paused); the player asks
/// again, with a range, when it plays on.
public struct StreamedMedia: Sendable {
    /// 200, 206 (the range asked for) or 416 (a range the file does not have).
    public var status: Int
    /// What the file is, when it says it is audio, video or an opaque file; nil otherwise, so
    /// that an HTML page linked as an enclosure is never served as a page from Kiosk's origin.
    public var contentType: String?
    public var contentLength: Int?
    public var contentRange: String?
    public var acceptsRanges: Bool
    public var etag: String?
    public var lastModified: String?
    /// The bytes, as the publisher sends them (an `AsyncSequence` of buffers).
    public var body: HTTPClientResponse.Body

    public init(
        status: Int, contentType: String? = nil, contentLength: Int? = nil, contentRange: String? = nil,
        acceptsRanges: Bool = false, etag: String? = nil, lastModified: String? = nil, body: HTTPClientResponse.Body
    ) {
        self.status = status
        self.contentType = contentType
        self.contentLength = contentLength
        self.contentRange = contentRange
        self.acceptsRanges = acceptsRanges
        self.etag = etag
        self.lastModified = lastModified
        self.body = body
    }
}

extension HTTPFetcher {
    /// Opens `url` for streaming, forwarding a player's `Range` (one range of bytes) and
    /// `If-Range`. Each destination, redirects included, is checked as for feeds (the guard before
    /// asking, and where it connects); `headTimeout` bounds the answer's head only.
    ///
    /// - Throws: ``FetchError``: a refusal, an error status (besides 416), a network failure.
    public func stream(
        _ url: URL, range: String? = nil, ifRange: String? = nil, headTimeout: Duration = .seconds(15)
    ) async throws(FetchError) -> StreamedMedia {
        guard Self.isFetchable(url) else { throw .invalidURL(url.absoluteString) }
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: userAgent)
        // Ranges count the bytes as stored; a compressed answer would count others.
        headers.add(name: "Accept-Encoding", value: "identity")
        if let range = range.flatMap(Self.byteRange) {
            headers.add(name: "Range", value: range)
            if let ifRange = ifRange.flatMap(Self.safeHeaderValue) { headers.add(name: "If-Range", value: ifRange) }
        }
        do {
            let (response, _) = try await followingRedirects(
                from: url, headers: headers, maxBytes: 0, deadline: FetchDeadline(after: headTimeout))
            let status = Int(response.status.code)
            let encoding = response.headers.first(name: "Content-Encoding")?.lowercased() ?? "identity"
            let encoded = encoding != "identity"
            // Only what the client decompresses; and a compressed range counts other bytes.
            guard status == 200 || status == 206 || status == 416, ["identity", "gzip", "deflate"].contains(encoding),
                !(encoded && status == 206)
            else { throw FetchError.status(code: status, message: nil, retryAfter: nil) }
            let field = { (name: String) in response.headers.first(name: name).flatMap(Self.safeHeaderValue) }
            return StreamedMedia(
                status: status,
                contentType: field("Content-Type").flatMap(Self.mediaType),
                // A body the client decompresses is not the length announced.
                contentLength: encoded ? nil : field("Content-Length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil },
                contentRange: field("Content-Range"),
                // A compressed answer's ranges would count compressed bytes: the player may not seek.
                acceptsRanges: !encoded && field("Accept-Ranges")?.lowercased() == "bytes",
                etag: field("ETag"), lastModified: field("Last-Modified"),
                body: response.body)
        } catch {
            throw FetchError(translating: error, url: url.absoluteString, maxBytes: 0)
        }
    }

    /// `value` when it is one range of bytes (`bytes=0-`, `bytes=100-199`, `bytes=-500`), as
    /// players ask; nil for anything else, which then asks for the whole file.
    static func byteRange(_ value: String) -> String? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), text.count <= 64 else { return nil }
        let spec = text.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            !(parts[0].isEmpty && parts[1].isEmpty)
        else { return nil }
        if let first = UInt64(parts[0]), let last = UInt64(parts[1]), last < first { return nil }
        return "bytes=" + spec
    }

    /// The answer's media type when it is one a player takes (audio, video, an opaque file),
    /// parameters dropped; nil for anything else. Not the playlists of HTTP streaming: their
    /// segments would load from the publisher, which is what the proxy is chosen to avoid.
    static func mediaType(_ value: String) -> String? {
        let type = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let playable =
            type.hasPrefix("audio/") || type.hasPrefix("video/")
            || ["application/octet-stream", "application/ogg"].contains(type)
        return playable && type.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/.+-_".contains($0)) } ? type : nil
    }
}

/// Where the media proxy opens files: the guarded fetcher when serving, a test's otherwise.
public struct MediaSource: Sendable {
    /// Opens a file at a URL with a player's `Range` and `If-Range`; throws a ``FetchError``.
    public var open: @Sendable (_ url: URL, _ range: String?, _ ifRange: String?) async throws -> StreamedMedia

    public init(open: @escaping @Sendable (_ url: URL, _ range: String?, _ ifRange: String?) async throws -> StreamedMedia) {
        self.open = open
    }

    /// Files opened by `fetcher` (``HTTPFetcher/stream(_:range:ifRange:headTimeout:)``).
    public static func fetcher(_ fetcher: HTTPFetcher) -> MediaSource {
        MediaSource { url, range, ifRange in try await fetcher.stream(url, range: range, ifRange: ifRange) }
    }
}
