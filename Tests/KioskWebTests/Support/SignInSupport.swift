import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskAccounts
import KioskStore
import Logging
import Testing

@testable import KioskWeb

/// A browser signed in to the test app: its session cookie and the page's anti-forgery token.
struct SignedIn: Sendable {
    var token: String
    var csrf: String

    var cookie: String { "\(SignInMiddleware.cookieName)=\(token)" }

    /// Headers of a script request of this session: the cookie, a form body, JSON wanted, and
    /// the anti-forgery token unless `csrf` is false (or another token when given).
    func headers(csrf: Bool = true, token other: String? = nil, json: Bool = true) -> HTTPFields {
        var headers: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
        if json { headers[.accept] = "application/json" }
        if let other {
            headers[.csrfToken] = other
        } else if csrf {
            headers[.csrfToken] = self.csrf
        }
        return headers
    }

    /// Headers of a page request of this session.
    var pageHeaders: HTTPFields { [.cookie: cookie, .accept: "text/html"] }
}

extension KioskHarness {
    var accounts: Accounts { dependencies.accounts }

    /// The app over this harness's dependencies, with another configuration or logger than
    /// ``run(_:_:)`` (which uses the harness's configuration and a quiet logger).
    func runApp<Value: Sendable>(
        _ setup: TestingSetup = .router, config: AppConfig? = nil, logger: Logger = .quiet,
        _ body: @Sendable (_ client: any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let app = buildApplication(config ?? self.config, dependencies: dependencies, logger: logger)
        return try await app.test(setup) { client in try await body(client) }
    }
}

enum SignInForm {
    /// A URL-encoded form body of `fields`, in order.
    static func body(_ fields: KeyValuePairs<String, String>) -> ByteBuffer {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return ByteBuffer(
            string: fields.map { key, value in
                "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            }.joined(separator: "&"))
    }

    static let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
}

extension TestClientProtocol {
    /// `POST /login` with a name and password (and `next`, and a cookie, when given).
    func postLogin(name: String, password: String, next: String? = nil, cookie: String? = nil) async throws
        -> TestResponse
    {
        var headers = SignInForm.headers
        if let cookie { headers[.cookie] = cookie }
        let body: ByteBuffer
        if let next {
            body = SignInForm.body(["name": name, "password": password, "next": next])
        } else {
            body = SignInForm.body(["name": name, "password": password])
        }
        return try await execute(uri: "/login", method: .post, headers: headers, body: body)
    }

    /// Signs in (the response must be a redirect with a session cookie) and reads the page's
    /// anti-forgery token from Home.
    func signIn(name: String, password: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> SignedIn
    {
        let response = try await postLogin(name: name, password: password)
        try #require(response.status == .seeOther, "signing in as \(name): \(response.status)", sourceLocation: sourceLocation)
        let token = try #require(
            SessionCookie.value(in: response), "no session cookie signing in as \(name)", sourceLocation: sourceLocation)
        let home = try await get("/", headers: [.cookie: "\(SignInMiddleware.cookieName)=\(token)"])
        try #require(home.status == .ok, "Home after signing in as \(name): \(home.status)", sourceLocation: sourceLocation)
        let csrf = try #require(
            PageToken.csrf(in: String(buffer: home.body)), "no csrf-token meta on Home", sourceLocation: sourceLocation)
        return SignedIn(token: token, csrf: csrf)
    }
}

/// The `kiosk_session` cookie a response sets.
enum SessionCookie {
    /// Every `Set-Cookie` of the response that sets the session cookie.
    static func headers(in response: TestResponse) -> [String] {
        response.headers[values: .setCookie].filter { $0.hasPrefix(SignInMiddleware.cookieName + "=") }
    }

    /// The value of the session cookie the response sets.
    static func value(in response: TestResponse) -> String? {
        guard let header = headers(in: response).first else { return nil }
        let pair = header.split(separator: ";", maxSplits: 1).first ?? ""
        return String(pair.dropFirst(SignInMiddleware.cookieName.count + 1))
    }

    /// The attributes (`HttpOnly`, `SameSite=Lax`, ...) of the session cookie, trimmed.
    static func attributes(in response: TestResponse) -> [String] {
        guard let header = headers(in: response).first else { return [] }
        return header.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

/// What a page carries for its script.
enum PageToken {
    /// The content of `<meta name="csrf-token" content="...">`, if the page has it.
    static func csrf(in html: String) -> String? {
        let marker = #"<meta name="csrf-token" content=""#
        guard let start = html.range(of: marker) else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

/// A swift-log handler that keeps every message (with its metadata) in memory.
struct RecordingLogHandler: LogHandler {
    /// What was logged, shared by every copy of the handler.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []

        func append(_ line: String) { lock.withLock { lines.append(line) } }

        var all: [String] { lock.withLock { lines } }
    }

    let record: Record
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        record.append("\(event.level) \(event.source) \(event.message) \(merged) \(event.error.map { "\($0)" } ?? "")")
    }
}
