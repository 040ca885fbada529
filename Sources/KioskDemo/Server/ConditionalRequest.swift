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
}
