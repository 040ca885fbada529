import Foundation
import HTTPTypes
import Hummingbird
import KioskAccounts
import KioskCore
import KioskReader
import KioskStore
import Logging

/// The Google Reader API, as NetNewsWire's ReaderAPI account (FreshRSS type), Reeder, ReadYou
/// and newsboat speak it, under `/api/greader` (what users type into those apps).
///
/// `accounts/ClientLogin` trades a name and password (the account's, or an app password) for a
/// long-lived token; every other call sends it as `Authorization: GoogleLogin auth=<token>`,
/// and every POST also carries the session's `T` token. A bad token or `T` is 401 with
/// `X-Reader-Google-Bad-Token: true`, never 400. Every change goes through the `Reader`, so open
/// web pages hear of it at once, and a change made on the web is in the next sync.
public struct GoogleReaderAPI<Context: SyncRequestContext>: Sendable {
    let services: SyncServices

    public init(_ services: SyncServices) {
        self.services = services
    }

    /// Bodies at most (an OPML import is the largest).
    static var bodyLimit: Int { 6 << 20 }

    public func register(on router: Router<Context>, at base: String = "api/greader") {
        let api = router.group(RouterPath(base))
        // POST only: a name and password in an address end up in proxies' access logs.
        api.post("accounts/ClientLogin") { request, context in try await clientLogin(request, context) }
        let calls: [(String, HTTPRequest.Method, Bool, Handler)] = [
            ("token", .get, false, token),
            ("token", .post, false, token),
            ("user-info", .get, false, userInfo),
            ("tag/list", .get, false, tagList),
            ("subscription/list", .get, false, subscriptionList),
            ("subscription/export", .get, false, exportOPML),
            ("unread-count", .get, false, unreadCount),
            ("stream/items/ids", .get, false, itemIDs),
            ("stream/items/ids", .post, true, itemIDs),
            ("stream/items/contents", .get, false, itemContents),
            ("stream/items/contents", .post, true, itemContents),
            ("stream/contents", .get, false, streamContents),
            ("subscription/quickadd", .post, true, quickAdd),
            ("subscription/edit", .post, true, editSubscription),
            ("subscription/import", .post, true, importOPML),
            ("rename-tag", .post, true, renameTag),
            ("disable-tag", .post, true, disableTag),
            ("edit-tag", .post, true, editTag),
            ("mark-all-as-read", .post, true, markAllAsRead),
        ]
        for (path, method, needsT, handler) in calls {
            api.on(RouterPath("reader/api/0/" + path), method: method) { request, context in
                try await authorized(request, context, needsT: needsT, handler)
            }
        }
        // A stream in the path: `stream/contents/feed%2F...`, newsboat's `reader/atom/feed%2F...`.
        api.get("reader/api/0/stream/contents/**") { request, context in
            try await authorized(request, context, needsT: false) { call in
                var call = call
                call.pathStream = Self.catchAll(context)
                return try await streamContents(call)
            }
        }
        api.get("reader/atom/**") { request, context in
            try await authorized(request, context, needsT: false) { call in
                var call = call
                call.pathStream = Self.catchAll(context)
                return try await atom(call)
            }
        }
    }

    // MARK: - Signing in

    private func clientLogin(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let body = try await Self.body(&request, limit: 8 << 10)
        let fields = FormFields(body)
        let query = FormFields(request.uri.query ?? "")
        let name = fields.first("Email") ?? ""
        let password = fields.first("Passwd") ?? ""
        let json = (fields.first("output") ?? query.first("output")) == "json"
        let token: String
        do throws(AccountError) {
            let found = try await services.accounts.verify(
                name: name, password: password, address: context.clientAddress ?? "unknown", appPasswords: true)
            token = try await services.accounts.openSession(.api, for: found.account, appPassword: found.appPassword).token
        } catch {
            switch error {
            case .throttled(let wait):
                var response = Self.text("Error=TooManyAttempts\nInfo=\(error.description)\n", status: .tooManyRequests, now: services.now())
                response.headers[.retryAfter] = String(max(1, wait.components.seconds))
                return response
            case .storage:
                services.logger.error("sign-in failed in the store", metadata: ["error": "\(error)"])
                return Self.text("Error=ServiceUnavailable\n", status: .serviceUnavailable, now: services.now())
            default:
                return Self.text("Error=BadAuthentication\n", status: .unauthorized, now: services.now())
            }
        }
        if json {
            return try Self.json(["SID": token, "LSID": "none", "Auth": token], request: request, now: services.now())
        }
        // One value per line, none empty, no `=` in the token: NetNewsWire splits on both.
        return Self.text("SID=\(token)\nLSID=none\nAuth=\(token)\n", now: services.now())
    }

    // MARK: - Every other call

    /// A call from a client that proved who it is.
    struct Call: Sendable {
        var request: Request
        var fields: FormFields
        var account: Account
        var session: StoredSession
        /// The stream named in the path (after `stream/contents/` or `reader/atom/`), decoded.
        var pathStream: String?
        var user: UserID { account.id }
    }

    typealias Handler = @Sendable (Call) async throws -> Response

    private func authorized(_ request: Request, _ context: Context, needsT: Bool, _ handler: Handler) async throws
        -> Response
    {
        var request = request
        guard let token = Self.authToken(request.headers),
            let found = try await services.accounts.session(token: token, kind: .api)
        else { throw Self.badToken("Sign in again: the token is missing, expired or revoked.") }
        let body = request.method == .post ? try await Self.body(&request) : ""
        let fields = FormFields(query: request.uri.query, body: body)
        if needsT {
            let sent = fields.first("T")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard Secret.matches(sent, found.session.csrf) else {
                throw Self.badToken("The T token is missing or wrong: fetch a new one from /token.")
            }
        }
        return try await handler(Call(request: request, fields: fields, account: found.account, session: found.session))
    }

    private func token(_ call: Call) async throws -> Response {
        // No newline: older NetNewsWire sends the body back verbatim as T.
        Self.text(call.session.csrf, now: services.now())
    }

    private func userInfo(_ call: Call) async throws -> Response {
        let id = String(call.user.rawValue)
        return try Self.json(
            UserInfo(userId: id, userName: call.account.name, userProfileId: id, userEmail: ""), request: call.request,
            now: services.now())
    }

    // MARK: - Helpers

    static func authToken(_ headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let prefix = "googlelogin auth="
        guard value.lowercased().hasPrefix(prefix) else { return nil }
        let token = value.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    static func badToken(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, headers: [.badToken: "true"], message: message)
    }

    static func body(_ request: inout Request, limit: Int = bodyLimit) async throws -> String {
        do {
            return String(buffer: try await request.collectBody(upTo: limit))
        } catch {
            throw HTTPError(.contentTooLarge, message: "The request body is too large.")
        }
    }

    static func catchAll(_ context: Context) -> String {
        let raw = context.parameters.getCatchAll().joined(separator: "/")
        return raw.removingPercentEncoding ?? raw
    }

    static func text(_ text: String, status: HTTPResponse.Status = .ok, now: Date) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store", .date: InternetDate.rfc822(now)],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func ok(now: Date) -> Response { text("OK", now: now) }

    /// JSON already written (see `JSONText`).
    static func jsonText(_ json: String, now: Date) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "application/json; charset=utf-8", .cacheControl: "private, no-cache",
                .date: InternetDate.rfc822(now),
            ],
            body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    /// JSON, with a validator: a client that sends back the `ETag` it has gets 304 while the
    /// answer is the same and, when a `version` is given, nothing changed in between (a feed
    /// removed and added back between two syncs leaves the same list, but not the same version).
    static func json(
        _ value: some Encodable, request: Request, now: Date, validated: Bool = false, version: Int64? = nil
    ) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        var headers: HTTPFields = [
            .contentType: "application/json; charset=utf-8", .cacheControl: "private, no-cache",
            .date: InternetDate.rfc822(now),
        ]
        if validated {
            let tag = "\"" + String(StableHash.fnv1a64(bytes: data), radix: 16) + (version.map { "-v\($0)" } ?? "") + "\""
            headers[.eTag] = tag
            if request.headers[.ifNoneMatch]?.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == tag
            }) == true {
                return Response(status: .notModified, headers: headers)
            }
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension HTTPField.Name {
    static let badToken = Self("X-Reader-Google-Bad-Token") ?? .contentType
}
