import Foundation
import KioskPostgres
import PostgresNIO
import Testing

/// Database URLs: what is read from them, and a clear error for what cannot be.
@Suite struct PostgresURLTests {
    @Test func aFullURLIsRead() throws {
        let configuration = try PostgresURL.configuration("postgres://kiosk:s%40cret@db.example.com:6543/kiosk_prod?sslmode=disable")
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "kiosk")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == "kiosk_prod")
        #expect(configuration.options.maximumConnections == 20)
        #expect(configuration.options.minimumConnections == 2)
    }

    @Test func theDefaultsAreTheUsualPortAndNoPassword() throws {
        let configuration = try PostgresURL.configuration("postgresql://kiosk@127.0.0.1/kiosk")
        #expect(configuration.port == 5432)
        #expect(configuration.password == nil)
        #expect(configuration.database == "kiosk")
    }

    @Test func sslModesAreAccepted() throws {
        for mode in ["disable", "prefer", "require", "verify-ca", "verify-full"] {
            _ = try PostgresURL.configuration("postgres://kiosk@db.example.com/kiosk?sslmode=\(mode)")
        }
        _ = try PostgresURL.configuration("postgres://kiosk@[::1]:5432/kiosk")
        let named = try PostgresURL.configuration("postgres://kiosk@localhost/kiosk?application_name=replica-1&connect_timeout=3")
        #expect(named.options.connectTimeout == .seconds(3))
        #expect(named.options.additionalStartupParameters.contains { $0.0 == "application_name" && $0.1 == "replica-1" })
    }

    @Test(arguments: [
        ("", PostgresURLError.unreadable),
        ("mysql://kiosk@host/kiosk", .scheme("mysql")),
        ("postgres://host/kiosk", .missingUser),
        ("postgres://kiosk@/kiosk", .missingHost),
        ("postgres://kiosk@host", .missingDatabase),
        ("postgres://kiosk@host/", .missingDatabase),
        ("postgres://kiosk@host:abc/kiosk", .port("abc")),
        ("postgres://kiosk@host:0/kiosk", .port("0")),
        ("postgres://kiosk@host/kiosk?sslmode=maybe", .sslMode("maybe")),
        ("postgres://kiosk@host/kiosk?pool=5", .parameter("pool")),
    ])
    func aBadURLIsATypedError(_ url: String, _ expected: PostgresURLError) throws {
        #expect(throws: expected) { try PostgresURL.configuration(url) }
    }

    @Test func theMessageNeverShowsThePassword() {
        #expect(throws: PostgresURLError.self) { try PostgresURL.configuration("postgres://kiosk:hunter2@host:abc/kiosk") }
        do {
            _ = try PostgresURL.configuration("postgres://kiosk:hunter2@host/kiosk?sslmode=nope")
        } catch {
            #expect(!"\(error)".contains("hunter2"))
            #expect("\(error)".contains("sslmode"))
        }
    }
}
