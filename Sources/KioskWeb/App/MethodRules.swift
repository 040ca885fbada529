import HTTPTypes
import Hummingbird

/// HTTP's answers for a method a path does not take: Hummingbird's router answers 404 for any
/// method a path was not registered with, which tells a client the page is gone when it only
/// used the wrong verb. Each path known to the router answers the methods HTTP defines but the
/// path does not take with 405 and an `Allow` listing the ones it does (HEAD wherever GET is,
/// since the router generates those); a method HTTP does not define is 501 everywhere.
enum MethodRules {
    /// The methods HTTP defines for resources (CONNECT, which names a host, is not one of them).
    static let known: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace]

    /// Registers the 405 answers; call once, after every route (they are read from the router).
    static func answerOtherMethods(on router: Router<KioskRequestContext>) {
        var methodsByPath: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in router.routes {
            methodsByPath[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        for (path, registered) in methodsByPath.values {
            var allowed = registered
            if allowed.contains(.get) { allowed.insert(.head) }
            let allow = known.filter(allowed.contains).map(\.rawValue).joined(separator: ", ")
            for method in known where !allowed.contains(method) {
                router.on(path, method: method) { _, _ -> Response in
                    throw HTTPError(.methodNotAllowed, headers: [.allow: allow])
                }
            }
        }
    }
}

/// Answers 501 Not Implemented to a method HTTP does not define (`PROPFIND`, `BREW`), as HTTP
/// asks of a server that does not recognise one, before anything else looks at the request.
struct KnownMethodsMiddleware: RouterMiddleware {
    typealias Context = KioskRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard MethodRules.known.contains(request.method) else { throw HTTPError(.notImplemented) }
        return try await next(request, context)
    }
}
