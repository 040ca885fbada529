import Foundation

/// When entries were added to one feed: one every `period` since `start`, plus manual additions.
/// Computed from the clock on demand, so no background timer is needed.
struct FeedTimeline: Sendable {
    /// One added entry: its 1-based position among all additions, and when it appeared.
    struct Addition: Sendable, Equatable {
        var ordinal: Int
        var date: Date
        /// For a manual addition, its index in the `manual` dates it came from; nil for a timed one.
        var manualIndex: Int? = nil
    }

    let start: Date
    /// nil or zero: the feed only changes by manual additions.
    let period: Duration?

    /// All additions up to `now`: their count (the feed's version) and the newest `limit`, oldest first.
    ///
    /// New additions always date after every addition an earlier call saw (a timed one was not yet
    /// due, a manual one did not yet exist), so an ordinal keeps its date across calls.
    func additions(manual: [Date], now: Date, limit: Int) -> (count: Int, newest: [Addition]) {
        let manual = manual.enumerated().filter { $0.element <= now }
        var timedCount = 0
        var timed: [Date] = []
        if let seconds = periodSeconds, seconds > 0, now > start {
            timedCount = Int((now.timeIntervalSince(start) / seconds).rounded(.down))
            if timedCount > 0 {
                let first = max(1, timedCount - limit + 1)
                timed = (first...timedCount).map { start.addingTimeInterval(Double($0) * seconds) }
            }
        }
        let count = timedCount + manual.count
        let stamped = timed.map { (date: $0, manualIndex: Int?.none) }
            + manual.suffix(limit).map { (date: $0.element, manualIndex: Int?.some($0.offset)) }
        let newest = stamped.sorted { $0.date < $1.date }.suffix(limit)
        let firstOrdinal = count - newest.count + 1
        let additions = newest.enumerated().map {
            Addition(ordinal: firstOrdinal + $0.offset, date: $0.element.date, manualIndex: $0.element.manualIndex)
        }
        return (count, additions)
    }

    private var periodSeconds: Double? {
        period.map { $0 / .seconds(1) }
    }
}
