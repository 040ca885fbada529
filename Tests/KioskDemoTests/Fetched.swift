import Foundation
import NIOHTTP1

/// A complete response as a test sees it.
struct Fetched: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? { headers.first(name: name) }

    /// The body as a JSON object, or nil.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
