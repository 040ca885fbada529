// swift-tools-version: 6.0
import PackageDescription

// One target per pipeline stage (see docs/ARCHITECTURE.md). KioskCore depends on
// Foundation only, so an Apple-platform app can reuse it unchanged.
let package = Package(
    name: "Kiosk",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "KioskCore", targets: ["KioskCore"]),
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "KioskCore"),
        // Hostile and oversized documents shared by the tests and the benchmarks.
        .target(name: "KioskTesting", dependencies: ["KioskCore"]),
        .executableTarget(
            name: "kiosk",
            dependencies: [
                "KioskCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "kiosk-bench",
            dependencies: [
                "KioskCore",
                "KioskTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KioskCoreTests",
            dependencies: ["KioskCore", "KioskTesting"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
