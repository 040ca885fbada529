import Foundation
import Hummingbird
import KioskCore

/// Decides whether a conditional GET can be answered 304, as RFC 9110 §13.2.2 orders it:
/// `If-None-Match` when present, else `If-Modified-Since`.
enum ConditionalRequest {
    static func isNotModified(_ headers: HTTPFields, etag: String, lastModified: Date) -> Bool {
        if let ifNoneMatch = HTTPHeader.value("if-none-match", in: headers) {
            return ifNoneMatch.split(separator: ",").contains { candidate in
                var tag = candidate.trimmingCharacters(in: .whitespaces)
                if tag.hasPrefix("W/") { tag.removeFirst(2) }  // weak comparison, as for GET
                return tag == "*" || tag == etag
            }
        }
        if let ifModifiedSince = HTTPHeader.value("if-modified-since", in: headers),
            let since = DateParser.parse(ifModifiedSince)
        {
            return lastModified <= since
        }
        return false
    }

    /// The answer of a resource with these validators: a 304 when `conditional` and the client
    /// already holds it, else `body()` (made only then), both with the `ETag` and `Last-Modified`.
    static func reply(
        to requestHeaders: HTTPFields, conditional: Bool, etag: String, lastModified: Date, contentType: String,
        body: () -> [UInt8]
    ) -> DemoReply {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.lastModified] = InternetDate.rfc822(lastModified)
        if conditional, isNotModified(requestHeaders, etag: etag, lastModified: lastModified) {
            return DemoReply(status: .notModified, contentType: nil, body: [], headers: headers)
        }
        return DemoReply(contentType: contentType, body: body(), headers: headers)
    }
}
