import Foundation
import Hummingbird

/// A JSON answer for the script (search results, jokes), never cached.
struct JSONResponse<Body: Encodable>: Sendable where Body: Sendable {
    var body: Body
    var status: HTTPResponse.Status = .ok

    init(_ body: Body, status: HTTPResponse.Status = .ok) {
        self.body = body
        self.status = status
    }

    var response: Response {
        get throws {
            let data = try JSONEncoder().encode(body)
            return Response(
                status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}
