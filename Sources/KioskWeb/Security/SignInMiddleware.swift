import Foundation
import HTTPTypes
import Hummingbird
import KioskAccounts
import KioskStore

/// Decides whose request it is. With no account at all, Kiosk serves the single local owner (it
/// only starts that way on loopback), who proves it with the link printed at start (see
/// ``OwnerAccess``; demo mode trusts loopback). Once an account exists, every page and action needs a
/// signed-in session (cookie `kiosk_session`); pages send a browser that has none to `/login`,
/// anything else gets 401. A state-changing request of a session must carry that session's
/// anti-forgery token (`X-CSRF-Token`, or `_csrf` in the query for plain forms).
struct SignInMiddleware: RouterMiddleware {
    typealias Context = KioskRequestContext
    static let cookieName = "kiosk_session"

    let accounts: Accounts
    let presence: AccountPresence
    /// Whether Kiosk listens on loopback only: the one case it may serve the local owner.
    let loopbackOnly: Bool
    /// How the local owner is told from anyone else on loopback (a proxy on this machine).
    let owner: OwnerPass

    /// Paths anyone may fetch: signing in, the app shell's files, the health check, and the sync
    /// APIs (which check their own credentials).
    static func isOpen(_ path: String) -> Bool {
        path == "/login" || path == "/healthz" || path == "/readyz" || path == "/offline" || path == "/offline/reader"
            || path == "/sw.js"
            || path == "/manifest.webmanifest" || path.hasPrefix("/static/") || path.hasPrefix("/api/")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        guard !Self.isOpen(path) else { return try await next(request, context) }
        guard await presence.accountsExist() else {
            // The last account was removed while Kiosk listens beyond loopback (or behind a proxy,
            // or a proxy forwards this request): nobody may come in.
            guard loopbackOnly, request.headers[.xForwardedFor] == nil, request.headers[.forwarded] == nil else {
                throw HTTPError(.serviceUnavailable, message: "Kiosk has no account yet: add one with `kiosk user add`.")
            }
            if let answer = owner.answer(request) { return answer }
            return try await next(request, context)
        }
        var context = context
        if let token = request.cookies[Self.cookieName]?.value,
            let found = try await accounts.session(token: token, kind: .web)
        {
            context.user = found.account.id
            context.account = found.account
            context.csrf = found.session.csrf
            var request = request
            // POST is the only method any route takes to change something; another method (PUT,
            // DELETE...) reaches only the router's 405 (or 501) and so is told that first.
            if request.method == .post, !(try await Self.carriesToken(found.session.csrf, &request)) {
                throw HTTPError(.forbidden, message: "This form has expired. Reload the page and try again.")
            }
            return try await next(request, context)
        }
        if request.method == .get, !path.hasPrefix("/events"), request.headers[.accept]?.contains("text/html") ?? true {
            let target = request.uri.description
            let query = "next=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/")
            return Response(status: .seeOther, headers: [.location: "/login?" + query, .cacheControl: "no-store"])
        }
        throw HTTPError(.unauthorized, message: "Sign in first.")
    }

    /// The token from the `X-CSRF-Token` header (the script), `_csrf` in the query (a file
    /// upload), or the `_csrf` field of a URL-encoded form (read here, and kept for the route).
    private static func carriesToken(_ csrf: String, _ request: inout Request) async throws -> Bool {
        var sent: String? = request.headers[.csrfToken]
        if sent == nil, let query = request.uri.queryParameters.get("_csrf") { sent = String(query) }
        if sent == nil, request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            let body = String(buffer: try await request.collectBody(upTo: 64 << 10))
            for pair in body.split(separator: "&") where pair.hasPrefix("_csrf=") {
                sent = String(pair.dropFirst("_csrf=".count)).removingPercentEncoding
            }
        }
        return sent.map { Secret.matches($0, csrf) } ?? false
    }
}

/// Whether any account exists, asked of the store at most once a second (an account added from
/// the command line while Kiosk runs takes effect within that second).
actor AccountPresence {
    private let accounts: Accounts
    /// Times the wait for the database (tests pass a clock they move).
    private let sleep: @Sendable (Duration) async throws -> Void
    private var known: (exists: Bool, at: ContinuousClock.Instant)?

    init(accounts: Accounts, sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.accounts = accounts
        self.sleep = sleep
    }

    func accountsExist() async -> Bool {
        let now = ContinuousClock.now
        if let known, now - known.at < .seconds(1) { return known.exists }
        // A database that is away (a replica's PostgreSQL restarting) may not answer for a while:
        // wait 2 s at most, then keep the last answer (nobody adds an account to a database
        // nobody reaches). With no answer ever, fail closed: accounts exist.
        let accounts = accounts
        let answer = await withinDeadline(.seconds(2), sleep: sleep) { try await accounts.exist() }
        guard let exists = answer else { return known?.exists ?? true }
        known = (exists, now)
        return exists
    }

}

extension HTTPField.Name {
    static let csrfToken = Self("X-CSRF-Token") ?? .contentType
    static let forwarded = Self("Forwarded") ?? .contentType
    static let clearSiteData = Self("Clear-Site-Data") ?? .contentType
}
