import HTTPTypes
import Hummingbird

/// Sets the headers that make every response safe to render: a strict Content-Security-Policy
/// (scripts only from Kiosk itself, never inline), no sniffing, no framing, no referrer leaking
/// to the sites articles link to, no powerful browser features. Errors become pages too, with
/// the same headers (and the error's own, such as a 405's `Allow`).
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = KioskRequestContext

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        // Episodes play straight from their publishers, as podcast apps play them (a media
        // element runs no script).
        "media-src 'self' https: http:",
        "connect-src 'self'", "manifest-src 'self'", "worker-src 'self'", "font-src 'self'", "object-src 'none'",
        "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Kiosk uses none of these, so no page (or script an article smuggled in) may ask for them;
    /// `interest-cohort` and `browsing-topics` keep the user out of the browser's ad profiling.
    static let permissionsPolicy = [
        "accelerometer=()", "camera=()", "geolocation=()", "gyroscope=()", "magnetometer=()", "microphone=()",
        "payment=()", "usb=()", "interest-cohort=()", "browsing-topics=()",
    ].joined(separator: ", ")

    /// Every response's security headers, in one list the channel's own answers (a malformed
    /// request's 400, which no route sees) share with the router's.
    static let fields: [(name: HTTPField.Name, value: String)] = [
        (.contentSecurityPolicy, contentSecurityPolicy), (.xContentTypeOptions, "nosniff"), (.xFrameOptions, "DENY"),
        (.referrerPolicy, "no-referrer"), (.permissionsPolicy, permissionsPolicy),
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            if error.status == .notFound {
                response = Self.page(MessagePage.notFound.page, status: .notFound)
            } else {
                // A message Kiosk wrote for the user (`HTTPError(_:message:)`) is said; else the status.
                let message = (error as? HTTPError)?.body ?? "\(error.status.reasonPhrase)."
                if request.headers[.accept]?.contains("application/json") == true {
                    response = (try? JSONResponse(ErrorBody(error: .init(message: message)), status: error.status).response)
                        ?? Response(status: error.status)
                } else {
                    let page = MessagePage(kind: "error", title: "Something went wrong", message: message)
                    response = Self.page(page.page, status: error.status)
                }
            }
            // The error's own headers say how to do better (405's `Allow`).
            if let error = error as? HTTPError { response.headers.append(contentsOf: error.headers) }
        } catch {
            let page = MessagePage(kind: "error", title: "Something went wrong", message: "Kiosk could not answer this request.")
            response = Self.page(page.page, status: .internalServerError)
        }
        for field in Self.fields { response.headers[field.name] = field.value }
        return response
    }

    /// An error as the script reads it: `{"error": {"message": "…"}}`.
    struct ErrorBody: Encodable, Sendable {
        struct Message: Encodable, Sendable { var message: String }
        var error: Message
    }

    static func page(_ page: Page, status: HTTPResponse.Status = .ok) -> Response {
        HTMLResponse(page.render(), status: status).response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options") ?? .contentType
    static let xFrameOptions = Self("X-Frame-Options") ?? .contentType
    static let referrerPolicy = Self("Referrer-Policy") ?? .contentType
    static let permissionsPolicy = Self("Permissions-Policy") ?? .contentType
    static let lastEventID = Self("Last-Event-ID") ?? .contentType

}
