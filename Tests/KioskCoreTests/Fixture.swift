import Foundation
import KioskTesting
import Testing

@testable import KioskCore

extension Fixture {
    /// Runs a seed parser and hands back its typed error, or nil when it did not throw. (Closures
    /// do not infer typed throws yet, so the body is untyped; anything but a SeedError is an issue.)
    static func seedError<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> SeedError? {
        do {
            _ = try body()
            return nil
        } catch let error as SeedError {
            return error
        } catch {
            Issue.record(error, "expected a SeedError", sourceLocation: sourceLocation)
            return nil
        }
    }
}
