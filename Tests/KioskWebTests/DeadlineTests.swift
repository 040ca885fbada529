import Foundation
import Testing

@testable import KioskWeb

/// `withinDeadline` answers on time even when the work ignores cancellation (a query already
/// sent on a half-open connection), and passes through what arrives in time.
@Suite struct DeadlineTests {
    @Test func workThatIgnoresCancellationIsGivenUpOnTime() async {
        let started = ContinuousClock.now
        let answer = await withinDeadline(.milliseconds(200)) { () -> Int in
            // Not cancellable: a wait in a task of its own, which the caller's cancellation does
            // not reach (a sleep in a loop would spin once cancelled, and hog a core).
            await Task.detached { try? await Task.sleep(for: .seconds(30)) }.value
            return 1
        }
        #expect(answer == nil)
        // Long before the work ends, with room for a loaded machine (CI saw 2.9 s).
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test func anAnswerInTimeAndAFailureArePassedOn() async {
        #expect(await withinDeadline(.seconds(5)) { 42 } == 42)
        struct Failure: Error {}
        #expect(await withinDeadline(.seconds(5)) { () throws -> Int in throw Failure() } == nil)
    }
}
