import Foundation
import KioskTesting
import Testing

@testable import KioskWeb

/// `withinDeadline` answers on time even when the work ignores cancellation (a query already
/// sent on a half-open connection), and passes through what arrives in time. Time is a
/// `ManualClock` the test moves, so a loaded machine cannot make the deadline late.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTests {
    @Test func workThatIgnoresCancellationIsGivenUpOnTime() async {
        let clock = ManualClock()
        let answer = Task {
            await withinDeadline(.milliseconds(200), clock: clock) { () -> Int in
                // Not cancellable: a wait in a task of its own, which the caller's cancellation
                // does not reach. It ends only when the test moves the clock an hour on.
                await Task.detached { try? await clock.sleep(for: .seconds(3_600)) }.value
                return 1
            }
        }
        // The deadline's timer and the work both wait on the clock.
        #expect(await clock.waitForSleepers(atLeast: 2))
        clock.advance(by: .milliseconds(199))
        #expect(clock.sleeperCount == 2, "nothing is due before the deadline")
        clock.advance(by: .milliseconds(1))
        #expect(await answer.value == nil)
        // Answered at the deadline while the work still runs, not when the work ended.
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(3_600))
    }

    @Test func anAnswerInTimeAndAFailureArePassedOn() async {
        let clock = ManualClock()
        #expect(await withinDeadline(.seconds(5), clock: clock) { 42 } == 42)
        struct Failure: Error {}
        #expect(await withinDeadline(.seconds(5), clock: clock) { () throws -> Int in throw Failure() } == nil)
    }
}
