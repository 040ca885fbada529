import Foundation

/// A syndication feed (RSS, Atom or JSON Feed) that the engine checks on its own clock.
public struct PolledSource: Sendable, Hashable, Codable {
    public var id: SourceID
    /// What the user sees, e.g. "Business".
    public var name: String
    public var url: URL
    /// Time between checks while the source answers.
    public var interval: Duration
    /// Extra request headers.
    public var headers: [String: String]

    public init(id: SourceID, name: String, url: URL, interval: Duration = .seconds(5), headers: [String: String] = [:]) {
        self.id = id
        self.name = name
        self.url = url
        self.interval = interval
        self.headers = headers
    }
}
