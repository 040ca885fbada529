import Foundation
import NIOConcurrencyHelpers

/// A "now" a test sets and moves, for code that reads the date through an injected `now`
/// closure (kept answers, budgets, retries after a failure), so it runs without waiting.
public final class ManualDate: Sendable {
    private let value: NIOLockedValueBox<Date>

    public init(_ start: Date) {
        value = NIOLockedValueBox(start)
    }

    public var now: Date {
        get { value.withLockedValue { $0 } }
        set { value.withLockedValue { $0 = newValue } }
    }
}
