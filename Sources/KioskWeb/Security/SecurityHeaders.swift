import HTTPTypes
import Hummingbird

/// Sets the headers that make every response safe to render: a strict Content-Security-Policy
/// (scripts only from Kiosk itself, never inline), no sniffing, no framing, no referrer leaking
/// to the sites articles link to. Errors become pages too, with the same headers.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = KioskRequestContext

    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "connect-src 'self'", "manifest-src 'self'", "worker-src 'self'", "font-src 'self'", "object-src 'none'",
        "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError where error.status == .notFound {
            response = Self.page(MessagePage.notFound.page, status: .notFound)
        } catch let error as HTTPResponseError {
            let page = MessagePage(kind: "error", title: "Something went wrong", message: "\(error.status.reasonPhrase).")
            response = Self.page(page.page, status: error.status)
        } catch {
            let page = MessagePage(kind: "error", title: "Something went wrong", message: "Kiosk could not answer this request.")
            response = Self.page(page.page, status: .internalServerError)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "no-referrer"
        return response
    }

    static func page(_ page: Page, status: HTTPResponse.Status = .ok) -> Response {
        HTMLResponse(page.render(), status: status).response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options") ?? .contentType
    static let xFrameOptions = Self("X-Frame-Options") ?? .contentType
    static let referrerPolicy = Self("Referrer-Policy") ?? .contentType
    static let lastEventID = Self("Last-Event-ID") ?? .contentType

}
