import Foundation
import Hummingbird
import KioskCore

/// The web app's static files (script, styles, icons, manifest, service worker), read once from
/// the bundle at start-up and served from memory with an ETag.
public struct Assets: Sendable {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
        var etag: String
    }

    private let files: [String: File]

    /// Reads every file under the bundle's `Assets` folder; `path` is relative to it (`app.js`).
    public static func fromBundle() throws -> Assets {
        guard let root = Bundle.module.url(forResource: "Assets", withExtension: nil) else {
            throw AssetsError(message: "the web app's assets are missing from the bundle")
        }
        return try Assets(directory: root)
    }

    init(directory: URL) throws {
        var files: [String: File] = [:]
        let root = directory.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let data = try Data(contentsOf: url)
            let path = String(url.standardizedFileURL.path.dropFirst(root.count + 1))
            files[path] = File(
                bytes: ByteBuffer(bytes: data), contentType: Self.contentType(of: url.pathExtension),
                etag: "\"\(StableHash.hex(bytes: data))\"")
        }
        self.files = files
    }

    func file(_ path: String) -> File? { files[path] }

    /// Every path, for the service worker's shell list and tests.
    var paths: [String] { files.keys.sorted() }

    private static func contentType(of fileExtension: String) -> String {
        switch fileExtension {
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "webmanifest": "application/manifest+json"
        case "json": "application/json"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// The file as a response: 304 when the browser's copy is current.
    func response(for path: String, request: Request) -> Response? {
        guard let file = files[path] else { return nil }
        let headers: HTTPFields = [
            .contentType: file.contentType, .eTag: file.etag, .cacheControl: "no-cache",
        ]
        if request.headers[.ifNoneMatch] == file.etag {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.bytes))
    }
}

struct AssetsError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
