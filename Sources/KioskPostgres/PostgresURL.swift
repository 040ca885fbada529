import Foundation
import PostgresNIO

/// Why a database URL cannot be used, said so the operator can fix it (never echoing a password).
public enum PostgresURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a URL at all.
    case unreadable
    /// Not `postgres://` or `postgresql://`.
    case scheme(String)
    case missingUser
    case missingHost
    case missingDatabase
    /// A port that is not a number from 1 to 65535.
    case port(String)
    /// An `sslmode` other than disable, prefer, require, verify-ca, verify-full.
    case sslMode(String)
    /// A query parameter Kiosk does not know.
    case parameter(String)

    public var description: String {
        let form = "postgres://user[:password]@host[:port]/database[?sslmode=disable|require]"
        switch self {
        case .unreadable: return "the database URL cannot be read; expected \(form)"
        case .scheme(let scheme): return "the database URL's scheme is \"\(scheme)\", not postgres; expected \(form)"
        case .missingUser: return "the database URL names no user; expected \(form)"
        case .missingHost: return "the database URL names no host; expected \(form)"
        case .missingDatabase: return "the database URL names no database; expected \(form)"
        case .port(let port): return "the database URL's port \"\(port)\" is not a number from 1 to 65535"
        case .sslMode(let mode):
            return "the database URL's sslmode \"\(mode)\" is none of disable, prefer, require, verify-ca, verify-full"
        case .parameter(let name):
            return "the database URL's parameter \"\(name)\" is not known (known: sslmode, application_name, connect_timeout)"
        }
    }
}

/// Reads a database URL into postgres-nio's client configuration.
public enum PostgresURL {
    /// The configuration for `url`: `postgres://user[:password]@host[:port]/database`, optionally
    /// `?sslmode=` (disable, prefer, require, verify-ca, verify-full; default `disable` on
    /// loopback, `prefer` elsewhere), `application_name=`, `connect_timeout=` (seconds). User,
    /// password and database may be percent-encoded. The pool keeps 2 to 20 connections; callers
    /// may change `options` afterwards.
    ///
    /// TLS always checks the server's certificate (`require` as `verify-full`, stricter than
    /// libpq; `verify-ca` skips only the host name), `prefer` falls back to plain text.
    public static func configuration(_ url: String) throws(PostgresURLError) -> PostgresClient.Configuration {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let port = try self.port(of: trimmed)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme else { throw .unreadable }
        guard ["postgres", "postgresql"].contains(scheme.lowercased()) else { throw .scheme(scheme) }
        guard let user = components.user, !user.isEmpty else { throw .missingUser }
        guard var host = components.host, !host.isEmpty else { throw .missingHost }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw .missingDatabase }

        var sslMode = isLoopback(host) ? "disable" : "prefer"
        var applicationName: String?
        var connectTimeout: Duration?
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode": sslMode = value
            case "application_name": applicationName = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds > 0 else { throw .parameter("connect_timeout=\(value)") }
                connectTimeout = .seconds(seconds)
            default: throw .parameter(item.name)
            }
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: components.password, database: database,
            tls: try tls(sslMode))
        configuration.options.minimumConnections = 2
        configuration.options.maximumConnections = 20
        if let applicationName { configuration.options.additionalStartupParameters.append(("application_name", applicationName)) }
        if let connectTimeout { configuration.options.connectTimeout = connectTimeout }
        return configuration
    }

    /// The port written in `url`'s authority, checked before `URLComponents` reads the URL (it
    /// refuses "host:abc" whole, which would hide what is wrong); 5432 when none is written.
    private static func port(of url: String) throws(PostgresURLError) -> Int {
        guard let start = url.range(of: "://")?.upperBound else { return 5432 }
        let authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority[...]
        if let bracket = host.lastIndex(of: "]") { host = host[host.index(after: bracket)...] }
        guard let colon = host.lastIndex(of: ":") else { return 5432 }
        let text = String(host[host.index(after: colon)...])
        guard let port = Int(text), (1...65_535).contains(port) else { throw .port(text) }
        return port
    }

    private static func tls(_ mode: String) throws(PostgresURLError) -> PostgresClient.Configuration.TLS {
        switch mode {
        case "disable": return .disable
        case "prefer", "allow": return .prefer(.makeClientConfiguration())
        case "require", "verify-full": return .require(.makeClientConfiguration())
        case "verify-ca":
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            return .require(configuration)
        default: throw .sslMode(mode)
        }
    }

    private static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered == "::1" || lowered.hasPrefix("127.")
    }
}
