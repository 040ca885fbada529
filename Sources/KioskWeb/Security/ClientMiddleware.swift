import Foundation
import Hummingbird

/// Gives each browser a random client id in a cookie (HttpOnly, SameSite=Strict), so on-demand
/// requests can be limited per browser: one joke in flight, one search, the newest winning.
struct ClientMiddleware: RouterMiddleware {
    typealias Context = KioskRequestContext
    static let cookieName = "kiosk_client"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let value = request.cookies[Self.cookieName]?.value, Self.isClientID(value) {
            context.clientID = value
            return try await next(request, context)
        }
        // Without the cookie, requests count per address: a client that refuses cookies cannot get
        // a fresh id (and a parallel joke or search) with every request.
        let issued = UUID().uuidString
        context.clientID = context.clientAddress.map { "address:\($0)" } ?? issued
        var response = try await next(request, context)
        response.setCookie(
            Cookie(name: Self.cookieName, value: issued, maxAge: 60 * 60 * 24 * 365, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    private static func isClientID(_ value: String) -> Bool {
        value.count == 36 && UUID(uuidString: value) != nil
    }
}
