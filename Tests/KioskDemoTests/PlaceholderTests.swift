import Testing
@testable import KioskDemo

@Suite struct DemoPlaceholderTests {
    @Test func targetBuilds() {}
}
