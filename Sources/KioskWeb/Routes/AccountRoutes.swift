import Foundation
import HTTPTypes
import Hummingbird
import KioskAccounts
import KioskStore

/// Signing in and out, and the settings screen (Home name, app passwords). A sign-in always
/// opens a new session with a new id (a planted cookie is worth nothing), throttled per account
/// and per address; the cookie is HttpOnly, SameSite=Lax, and Secure when the browser came over
/// TLS (said by `X-Forwarded-Proto` from a configured proxy only).
struct AccountRoutes: Sendable {
    let accounts: Accounts
    let live: LiveBroadcaster
    let host: String
    let port: Int
    let trustedProxies: [String]
    /// The server's "Load media through Kiosk" for accounts that have not chosen; nil when there
    /// is no media proxy (and no choice to offer).
    var mediaThroughKiosk: Bool?

    private struct SignIn: Decodable {
        var name: String
        var password: String
        var next: String?
    }
    private struct Named: Decodable { var name: String? }
    /// A checkbox: present ("on") when ticked, absent when not.
    private struct Ticked: Decodable { var through: String? }

    func register(on router: Router<KioskRequestContext>) {
        router.get("login") { request, context in
            let next = Self.localPath(request.uri.queryParameters.get("next"))
            var response = SignInPage(next: next).page.response(for: context)
            // A browser shown the sign-in page is about to sign in, or holds no session (signed
            // out, or expired): it must not keep any account's pages for offline use either.
            response.headers[.clearSiteData] = Self.clearSiteData
            return response
        }
        router.post("login") { request, context in
            let form = try await FormBody.decode(SignIn.self, from: request, limit: 8_192)
            let next = Self.localPath(form.next)
            let address = context.clientAddress ?? "unknown"
            do throws(AccountError) {
                let found = try await accounts.verify(name: form.name, password: form.password, address: address)
                // The session this browser had (if any) ends: a sign-in never keeps an old id.
                if let old = request.cookies[SignInMiddleware.cookieName]?.value {
                    try? await accounts.closeSession(token: old)
                }
                let opened = try await accounts.openSession(.web, for: found.account)
                var response = FormBody.redirect(next)
                response.headers[.cacheControl] = "no-store"
                response.setCookie(sessionCookie(opened.token, request: request, context: context))
                return response
            } catch {
                var response = HTMLResponse(
                    SignInPage(name: form.name, next: next, error: error.description).page.render(),
                    status: Self.status(of: error)
                ).response
                if case .throttled(let wait) = error {
                    response.headers[.retryAfter] = String(max(1, wait.components.seconds))
                }
                return response
            }
        }
        router.post("logout") { request, context in
            if let token = request.cookies[SignInMiddleware.cookieName]?.value {
                try? await accounts.closeSession(token: token)
            }
            // The session's open pages stop hearing its events at once.
            if let session = context.csrf { await live.disconnect(session: session) }
            var response = FormBody.redirect("/login")
            response.setCookie(sessionCookie("", request: request, context: context, expired: true))
            // Nothing of the account stays on the device: the service worker's cached pages, its
            // registration, any stored data and the HTTP cache (the worker also purges its pages
            // itself when it sees the sign-in page, for browsers that ignore this header).
            response.headers[.clearSiteData] = Self.clearSiteData
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.get("settings") { request, context in
            try await settings(request: request, context: context)
        }
        router.post("settings/home-name") { request, context in
            guard let account = context.account else { throw HTTPError(.notFound) }
            let form = try await FormBody.decode(Named.self, from: request)
            do throws(AccountError) {
                try await accounts.setHomeName(form.name, user: account.id)
            } catch {
                return try await settings(request: request, context: context, error: error.description)
            }
            return FormBody.redirect("/settings?saved=1")
        }
        router.post("settings/media") { request, context in
            guard let account = context.account, mediaThroughKiosk != nil else { throw HTTPError(.notFound) }
            let form = try await FormBody.decode(Ticked.self, from: request)
            do throws(AccountError) {
                try await accounts.setMediaThroughKiosk(form.through != nil, user: account.id)
            } catch {
                return try await settings(request: request, context: context, error: error.description)
            }
            return FormBody.redirect("/settings?saved=1")
        }
        router.post("settings/app-passwords") { request, context in
            guard let account = context.account else { throw HTTPError(.notFound) }
            let form = try await FormBody.decode(Named.self, from: request)
            let made: (password: AppPassword, secret: String)
            do throws(AccountError) {
                made = try await accounts.createAppPassword(name: form.name ?? "", user: account.id)
            } catch {
                return try await settings(request: request, context: context, error: error.description)
            }
            return try await settings(request: request, context: context, created: (made.password.name, made.secret))
        }
        router.post("settings/app-passwords/:id/revoke") { _, context in
            guard let account = context.account, let id = context.parameters.get("id", as: Int64.self) else {
                throw HTTPError(.notFound)
            }
            guard try await accounts.revokeAppPassword(id, user: account.id) else { throw HTTPError(.notFound) }
            return FormBody.redirect("/settings?revoked=1")
        }
    }

    /// What signing out wipes from the browser (`Clear-Site-Data`).
    static let clearSiteData = "\"cache\", \"storage\""

    private func settings(
        request: Request, context: KioskRequestContext, created: (name: String, secret: String)? = nil,
        error: String? = nil
    ) async throws -> Response {
        var passwords: [AppPassword] = []
        var account: Account?
        if let signedIn = context.account {
            passwords = try await accounts.appPasswords(user: signedIn.id)
            // Fresh from the store after a change (the context's copy is from before it).
            account = try await accounts.account(signedIn.id)
        }
        let query = request.uri.queryParameters
        let message = query.get("saved") != nil ? "Saved." : query.get("revoked") != nil ? "Revoked." : nil
        var response = SettingsPage(
            account: account, appPasswords: passwords, origin: origin(request, context: context), created: created,
            message: created == nil ? message : nil, error: error, mediaThroughKiosk: mediaThroughKiosk
        ).page.response(for: context)
        // A page that may show a secret is never stored anywhere.
        response.headers[HTTPField.Name.cacheControl] = "no-store"
        return response
    }

    /// The address the browser used to reach Kiosk, for the instructions.
    private func origin(_ request: Request, context: KioskRequestContext) -> String {
        let scheme = isSecure(request, context: context) ? "https" : "http"
        return "\(scheme)://\(request.head.authority ?? "\(host):\(port)")"
    }

    /// Whether the browser's connection is TLS: only a configured proxy may say so.
    private func isSecure(_ request: Request, context: KioskRequestContext) -> Bool {
        guard let address = context.remoteAddress, trustedProxies.contains(address) else { return false }
        return request.headers[.xForwardedProto]?.lowercased() == "https"
    }

    private func sessionCookie(
        _ token: String, request: Request, context: KioskRequestContext, expired: Bool = false
    ) -> Cookie {
        Cookie(
            name: SignInMiddleware.cookieName, value: token,
            maxAge: expired ? 0 : Int(Accounts.webSessionLifetime.components.seconds), path: "/",
            secure: isSecure(request, context: context), httpOnly: true, sameSite: .lax)
    }

    private static func status(of error: AccountError) -> HTTPResponse.Status {
        switch error {
        case .throttled: .tooManyRequests
        case .wrongCredentials: .unauthorized
        case .storage: .internalServerError
        default: .badRequest
        }
    }

    /// `path` when it is a path of this Kiosk, else Home: never another site. Browsers drop tabs
    /// and newlines from a URL (`/<tab>/evil.example` is `//evil.example` to them), so a path
    /// with a control character or a space is not taken either.
    static func localPath(_ path: String?) -> String {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path != "/login",
            !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else {
            return "/"
        }
        return path
    }
}

extension HTTPField.Name {
    static let xForwardedProto = Self("X-Forwarded-Proto") ?? .contentType
}
