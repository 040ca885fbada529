// swift-tools-version: 6.0
import PackageDescription

// One target per pipeline stage (see docs/ARCHITECTURE.md). KioskCore depends on
// Foundation only, so an Apple-platform app can reuse it unchanged.
let package = Package(
    name: "Kiosk",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "KioskCore", targets: ["KioskCore"]),
        .library(name: "KioskHTML", targets: ["KioskHTML"]),
        .library(name: "KioskModel", targets: ["KioskModel"]),
        .library(name: "KioskSources", targets: ["KioskSources"]),
        .library(name: "KioskDemo", targets: ["KioskDemo"]),
        .library(name: "KioskStore", targets: ["KioskStore"]),
        .library(name: "KioskSQLite", targets: ["KioskSQLite"]),
        .library(name: "KioskReader", targets: ["KioskReader"]),
        .library(name: "KioskPostgres", targets: ["KioskPostgres"]),
        .library(name: "KioskCluster", targets: ["KioskCluster"]),
        .library(name: "KioskSettings", targets: ["KioskSettings"]),
        .library(name: "KioskAccounts", targets: ["KioskAccounts"]),
        .library(name: "KioskPush", targets: ["KioskPush"]),
        .library(name: "KioskSync", targets: ["KioskSync"]),
        .library(name: "KioskWeb", targets: ["KioskWeb"]),
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
    ],
    targets: [
        .target(name: "KioskCore"),
        // Web pages: the allow-list sanitizer, the reader view's extractor and feed discovery,
        // on KioskCore's tokenizer; the feed parsers are built without it.
        .target(name: "KioskHTML", dependencies: ["KioskCore"]),
        // The domain values and persistence protocols several targets share (sources, their state
        // and errors, the coordination of replicas): Foundation only, no HTTP client.
        .target(name: "KioskModel", dependencies: ["KioskCore"]),
        // Fetching, source definitions, the polling engine and its event hub, the image pipeline.
        .target(
            name: "KioskSources",
            dependencies: [
                "KioskModel",
                "KioskCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // Only to tell a failed TLS handshake from other network errors (FetchError.tls).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOSOCKS", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The embedded sample-sources server of demo mode: captured payloads, evolving, on loopback.
        .target(
            name: "KioskDemo",
            dependencies: [
                "KioskModel",
                "KioskCore",
                "KioskPush",
                "KioskSources",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources")]
        ),
        // What Kiosk remembers across restarts, as protocols, values and the rules every
        // database keeps alike (no database here).
        .target(
            name: "KioskStore",
            dependencies: [
                "KioskModel",
                "KioskCore",
            ]
        ),
        // The store on SQLite (GRDB): one file, zero set-up. Only SQL and row mapping.
        .target(
            name: "KioskSQLite",
            dependencies: [
                "KioskModel",
                "KioskCore",
                "KioskStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The same store on PostgreSQL (postgres-nio), for several replicas sharing one database.
        .target(
            name: "KioskPostgres",
            dependencies: [
                "KioskModel",
                "KioskCore",
                "KioskStore",
                "KioskSQLite",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Replicas on one PostgreSQL: feed leases (each feed checked once), the change log and
        // LISTEN/NOTIFY fan-out that keeps every replica's pages live.
        .target(
            name: "KioskCluster",
            dependencies: [
                "KioskModel",
                "KioskCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Every setting with its default written once; defaults, config file, environment and flags
        // merged in one order; the one way to open the store they name.
        .target(
            name: "KioskSettings",
            dependencies: [
                "KioskSources",
                "KioskStore",
                "KioskSQLite",
                "KioskPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The user's own reader: subscriptions, feed discovery, OPML, read and star state.
        .target(
            name: "KioskReader",
            dependencies: [
                "KioskHTML",
                "KioskModel",
                "KioskCore",
                "KioskSources",
                "KioskStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Accounts: password hashing (bcrypt), app passwords, sessions and tokens, sign-in throttling.
        .target(
            name: "KioskAccounts",
            dependencies: [
                "KioskStore",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Web Push: payload encryption (RFC 8291) and the server's VAPID key (RFC 8292), on
        // swift-crypto and jwt-kit; no I/O.
        .target(
            name: "KioskPush",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        // The sync APIs native readers speak: Google Reader (NetNewsWire, Reeder, newsboat...) and Fever.
        .target(
            name: "KioskSync",
            dependencies: [
                "KioskHTML",
                "KioskModel",
                "KioskCore",
                "KioskStore",
                "KioskReader",
                "KioskAccounts",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The web app: Hummingbird routes, typed HTML views, live updates over SSE, the image proxy.
        .target(
            name: "KioskWeb",
            dependencies: [
                "KioskPush",
                "KioskHTML",
                "KioskModel",
                "KioskCore",
                "KioskSources",
                "KioskStore",
                "KioskReader",
                "KioskAccounts",
                "KioskSync",
                "KioskPostgres",
                "KioskSettings",
                "KioskCluster",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Assets")]
        ),
        // Shared by the tests and the benchmarks: hostile and oversized documents, the hub event log.
        .target(
            name: "KioskTesting",
            dependencies: [
                "KioskModel",
                "KioskCore", "KioskSources", "KioskPostgres", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]),
        .executableTarget(
            name: "kiosk",
            dependencies: [
                "KioskHTML",
                "KioskAccounts",
                "KioskPostgres",
                "KioskSettings",
                "KioskCore",
                "KioskSources",
                "KioskDemo",
                "KioskWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "kiosk-bench",
            dependencies: [
                "KioskHTML",
                "KioskModel",
                "KioskAccounts",
                "KioskPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                "KioskCore",
                "KioskTesting",
                "KioskSources",
                "KioskReader",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "KioskDemo",
                "KioskStore",
                "KioskSQLite",
                "KioskWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KioskPushTests",
            dependencies: [
                "KioskPush",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .testTarget(
            name: "KioskCoreTests",
            dependencies: ["KioskCore", "KioskTesting"]
        ),
        .testTarget(
            name: "KioskHTMLTests",
            dependencies: ["KioskHTML", "KioskCore", "KioskTesting"]
        ),
        .testTarget(
            name: "KioskSourcesTests",
            dependencies: [
                "KioskModel",
                "KioskSources",
                "KioskCore",
                "KioskDemo",
                "KioskTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "KioskDemoTests",
            dependencies: [
                "KioskHTML",
                "KioskDemo",
                "KioskCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "KioskStoreTests",
            dependencies: [
                "KioskModel",
                "KioskStore",
                "KioskSQLite",
                "KioskPostgres",
                "KioskSources",
                "KioskDemo",
                "KioskTesting",
                "KioskCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "KioskPostgresTests",
            dependencies: [
                "KioskModel",
                "KioskPostgres",
                "KioskTesting",
                "KioskStore",
                "KioskSQLite",
                "KioskSources",
                "KioskCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "KioskClusterTests",
            dependencies: [
                "KioskModel",
                "KioskCluster",
                "KioskPostgres",
                "KioskTesting",
                "KioskSources",
                "KioskCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "KioskSettingsTests",
            dependencies: ["KioskSettings", "KioskStore", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "KioskReaderTests",
            dependencies: [
                "KioskModel",
                "KioskReader", "KioskStore", "KioskSQLite", "KioskSources", "KioskCore", "KioskTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "KioskWebTests",
            dependencies: [
                "KioskPush",
                "KioskHTML",
                "KioskModel",
                "KioskCore",
                "KioskWeb",
                "KioskReader",
                "KioskAccounts",
                "KioskSettings",
                "KioskStore",
                "KioskSQLite",
                "KioskSources",
                "KioskDemo",
                "KioskTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
