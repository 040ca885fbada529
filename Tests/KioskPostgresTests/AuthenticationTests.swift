import Foundation
import KioskTesting
import PostgresNIO
import Testing

/// The test server (`scripts/postgres.sh`) takes passwords over TCP (scram-sha-256): a connection
/// with a wrong password, or none, is refused before it can run anything.
@Suite struct AuthenticationTests {
    /// A single connection to the test server as `password` (the URL's own when nil is not asked).
    private static func connect(password: String?) async throws -> PostgresConnection {
        let url = try #require(URLComponents(string: try TestDatabase.url()))
        let configuration = PostgresConnection.Configuration(
            host: try #require(url.host), port: url.port ?? 5432, username: url.user ?? "kiosk", password: password,
            database: String(url.path.dropFirst()), tls: .disable)
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: TestDatabase.logger)
    }

    @Test(arguments: ["not-the-password", nil] as [String?])
    func aWrongOrMissingPasswordIsRefusedOverTCP(password: String?) async throws {
        do {
            let connection = try await Self.connect(password: password)
            try? await connection.close()
            Issue.record("the server let a connection in with password \(password ?? "(none)")")
        } catch let error as PSQLError {
            // PostgreSQL's "password authentication failed" (28P01), or, with no password, the
            // client's own refusal to answer the server's password challenge.
            let refusedByServer = error.serverInfo?[.sqlState] == "28P01"
            let noPasswordToGive = error.code == .authMechanismRequiresPassword
            #expect(refusedByServer || noPasswordToGive, "\(String(reflecting: error))")
        }
    }

    @Test func theRightPasswordIsLetIn() async throws {
        let url = try #require(URLComponents(string: try TestDatabase.url()))
        let connection = try await Self.connect(password: url.password)
        let one = try await connection.query("SELECT 1 AS one", logger: TestDatabase.logger).collect().first?.decode(Int.self)
        try await connection.close()
        #expect(one == 1)
    }
}
