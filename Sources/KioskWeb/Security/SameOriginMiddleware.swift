import HTTPTypes
import Hummingbird

/// Refuses state-changing requests (anything but GET and HEAD) sent by another site's page: the
/// reader's forms and actions change what the user follows and has read, and a page elsewhere
/// must not be able to submit them in the user's browser (CSRF).
///
/// Browsers say where a request comes from: `Sec-Fetch-Site` (every current browser), else
/// `Origin`, which must name this server's own host. A request with neither is not from a
/// browser page (curl, a sync client), so there is no victim browser to protect.
struct SameOriginMiddleware: RouterMiddleware {
    typealias Context = KioskRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method != .get, request.method != .head else { return try await next(request, context) }
        guard Self.isSameOrigin(request.headers, authority: request.head.authority) else {
            throw HTTPError(.forbidden, message: "This action must come from Kiosk's own pages.")
        }
        return try await next(request, context)
    }

    static func isSameOrigin(_ headers: HTTPFields, authority: String?) -> Bool {
        if let site = headers[.secFetchSite]?.lowercased() {
            return site == "same-origin" || site == "none"
        }
        guard let origin = headers[.origin] else { return true }
        guard let authority, origin != "null" else { return false }
        let host = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first
        return host.map { $0.lowercased() == authority.lowercased() } ?? false
    }
}

extension HTTPField.Name {
    static let secFetchSite = Self("Sec-Fetch-Site") ?? .contentType
}
