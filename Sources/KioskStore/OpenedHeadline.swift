import Foundation

/// The headline a user opened last: enough to show it and to go back to it after a restart.
public struct OpenedHeadline: Sendable, Hashable, Codable {
    public var title: String
    /// The app's path of the opened entry (its page in the web app).
    public var path: String
    public var openedAt: Date

    public init(title: String, path: String, openedAt: Date) {
        self.title = title
        self.path = path
        self.openedAt = openedAt
    }
}
