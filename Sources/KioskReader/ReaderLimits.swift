import Foundation

/// What one account may do to the shared server: how many feeds it may follow (each is polled
/// for everyone) and how many OPML imports it may make in an hour. Said plainly when reached.
public struct ReaderLimits: Sendable, Hashable {
    /// Feeds one account may follow, the News sources included.
    public var subscriptionsPerAccount = 2_500
    /// OPML imports one account may make in an hour.
    public var importsPerHour = 10

    public init(subscriptionsPerAccount: Int = 2_500, importsPerHour: Int = 10) {
        self.subscriptionsPerAccount = subscriptionsPerAccount
        self.importsPerHour = importsPerHour
    }
}
