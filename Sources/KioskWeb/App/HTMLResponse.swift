import Hummingbird

/// A rendered page or fragment as a response: UTF-8 HTML, never cached by intermediaries.
struct HTMLResponse: Sendable {
    var html: String
    var status: HTTPResponse.Status

    init(_ html: String, status: HTTPResponse.Status = .ok) {
        self.html = html
        self.status = status
    }

    var response: Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

extension Page {
    var response: Response { HTMLResponse(render()).response }

    /// The page as drawn for whoever asked: signed in, it names them and carries their token.
    func response(for context: KioskRequestContext) -> Response {
        var page = self
        page.viewer = context.viewer
        return page.response
    }
}
