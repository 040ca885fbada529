import HTTPTypes
import Hummingbird

/// Behind a reverse proxy every request comes from the proxy's address, so sign-in throttling
/// would count everyone as one client (and 20 failures anywhere would lock everyone out). A
/// proxy listed in `trustedProxies` says who its client was in `X-Forwarded-For`; the last
/// address there is the one it saw (earlier ones are whatever the client claimed). From any other
/// peer the header is ignored.
struct ForwardedForMiddleware: RouterMiddleware {
    typealias Context = KioskRequestContext
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let peer = context.remoteAddress, trustedProxies.contains(peer),
            let header = request.headers[values: .xForwardedFor].last,
            let last = header.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty,
            last.count <= 64
        else { return try await next(request, context) }
        var context = context
        context.clientAddress = last
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For") ?? .contentType
}
