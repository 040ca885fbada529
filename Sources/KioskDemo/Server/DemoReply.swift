import Hummingbird

/// A complete answer of a source before faults are applied: status, headers and the whole body.
struct DemoReply: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: [UInt8]

    init(status: HTTPResponse.Status = .ok, contentType: String?, body: [UInt8], headers: HTTPFields = [:]) {
        self.status = status
        self.headers = headers
        if let contentType { self.headers[.contentType] = contentType }
        self.body = body
    }

    static func json(_ body: [UInt8], status: HTTPResponse.Status = .ok) -> DemoReply {
        DemoReply(status: status, contentType: "application/json; charset=utf-8", body: body)
    }

    static func text(_ text: String, status: HTTPResponse.Status) -> DemoReply {
        DemoReply(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    static let notFound = DemoReply.text("Not Found\n", status: .notFound)
}
