import Foundation
import HTTPTypes
import Hummingbird
import KioskSources
import KioskStore
import Logging

/// `/media?u=<url>&s=<signature>`: "Load media through Kiosk". An episode's file streamed from
/// its publisher as it arrives, only for URLs Kiosk's own player signed (apart from images'):
/// the player's `Range` goes through, so seeking works; each destination and redirect is held to
/// the guards as feeds are; no size cap, but each account has a few streams at once.
struct MediaRoute: Sendable {
    let signer: ImageSigner
    /// Where files are opened; nil, none (the route then answers 404).
    let source: MediaSource?
    let streams: MediaStreams
    let logger: Logger

    func register(on router: Router<KioskRequestContext>) {
        // Players only GET; the HEAD Hummingbird would make of the GET would open the file.
        router.head("media") { _, _ in Response(status: .methodNotAllowed, headers: [.allow: "GET"]) }
        router.get("media") { request, context in
            guard let link = request.uri.queryParameters.get("u"), let signature = request.uri.queryParameters.get("s"),
                signer.isValid(url: String(link), signature: String(signature), for: .media),
                let url = URL(string: String(link))
            else { throw HTTPError(.forbidden) }
            guard let source else { throw HTTPError(.notFound) }
            guard let ticket = streams.admit(context.user) else {
                throw HTTPError(
                    .tooManyRequests, headers: [.retryAfter: "2"],
                    message: "Too many files are loading through Kiosk for this account at once; try again in a moment.")
            }
            let media: StreamedMedia
            do {
                media = try await source.open(url, request.headers[.range], request.headers[.ifRange])
            } catch {
                // Why is logged, never told: it would tell a feed's author what the server can reach.
                logger.debug("media unavailable", metadata: ["url": "\(link)", "error": "\(error)"])
                throw HTTPError(.badGateway, message: "This file could not be loaded from its publisher.")
            }
            return Response(
                status: HTTPResponse.Status(code: media.status), headers: Self.headers(of: media),
                body: ResponseBody { writer in
                    // The account's place is held while the file streams, and given back when
                    // this body (or a response dropped unsent) goes.
                    defer { withExtendedLifetime(ticket) {} }
                    for try await buffer in media.body { try await writer.write(buffer) }
                    try await writer.finish(nil)
                })
        }
    }

    /// What the player needs of the publisher's answer, and nothing else of it (no cookies, no
    /// caching rules of the publisher's CDN): the type, the length and range, the validators.
    static func headers(of media: StreamedMedia) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: media.contentType ?? "application/octet-stream",
            // The account's own choice of episode: kept by this browser only.
            .cacheControl: "private, max-age=3600",
        ]
        if let length = media.contentLength { headers[.contentLength] = String(length) }
        if let range = media.contentRange { headers[.contentRange] = range }
        if media.acceptsRanges { headers[.acceptRanges] = "bytes" }
        if let etag = media.etag { headers[.eTag] = etag }
        if let lastModified = media.lastModified { headers[.lastModified] = lastModified }
        return headers
    }
}
