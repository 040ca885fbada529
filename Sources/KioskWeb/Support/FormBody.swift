import Foundation
import Hummingbird

/// Reading what a form or the script posted.
enum FormBody {
    /// A URL-encoded form body (at most `limit` bytes) decoded as `T`; 400 when it is not one.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 64 << 10) async throws -> T {
        let buffer = try await request.body.collect(upTo: limit)
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: String(buffer: buffer))
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read.")
        }
    }

    /// Whether the script asked (it wants JSON; a plain form wants a page or a redirect).
    static func wantsJSON(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("application/json") == true
    }

    /// `path` when it is one of the reader's own pages, else the reader's home: where a plain
    /// form goes back to, never another site.
    static func back(_ path: String?) -> String {
        guard let path, path.hasPrefix("/reader"), !path.hasPrefix("//"), !path.contains("\\") else { return "/reader" }
        return path
    }

    /// A 303 to `path` (after a POST, the browser GETs it).
    static func redirect(_ path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path])
    }
}

/// The file of a `multipart/form-data` upload: the first part that carries a file name. Only
/// slices the bytes (no copy of each part); anything malformed is nil.
enum MultipartFile {
    static func first(in body: [UInt8], contentType: String) -> [UInt8]? {
        guard let boundaryParameter = contentType.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
            .first(where: { $0.lowercased().hasPrefix("boundary=") })
        else { return nil }
        let boundary = Array(("--" + boundaryParameter.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))).utf8)
        guard boundary.count > 2, boundary.count <= 80 else { return nil }
        var start = 0
        while let found = find(boundary, in: body, from: start) {
            let partStart = found + boundary.count
            guard let headersEnd = find(Array("\r\n\r\n".utf8), in: body, from: partStart) else { return nil }
            let headers = String(decoding: body[partStart..<headersEnd], as: UTF8.self).lowercased()
            let contentStart = headersEnd + 4
            guard let next = find(Array("\r\n".utf8) + boundary, in: body, from: contentStart) else { return nil }
            if headers.contains("filename=") { return Array(body[contentStart..<next]) }
            start = next + 2
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
