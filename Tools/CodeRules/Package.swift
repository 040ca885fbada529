// swift-tools-version: 6.0
import PackageDescription

// The code-rules checker lives in its own package so that swift-syntax never
// enters the product's dependency graph; only CI and developers build it.
let package = Package(
    name: "CodeRules",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "code-rules", targets: ["code-rules"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // The rules are a library so the test target can exercise them on snippets.
        .target(
            name: "CodeRulesCore",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .executableTarget(
            name: "code-rules",
            dependencies: ["CodeRulesCore"]
        ),
        .testTarget(
            name: "CodeRulesCoreTests",
            dependencies: ["CodeRulesCore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
