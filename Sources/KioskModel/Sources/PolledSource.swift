import Foundation
import KioskCore

/// A source the engine checks on its own clock: a syndication feed (RSS, Atom or JSON Feed) unless
/// its `kind` says otherwise.
public struct PolledSource: Sendable, Hashable, Codable {
    public var id: SourceID
    /// What the user sees, e.g. "Business".
    public var name: String
    public var url: URL
    /// Time between checks while the source answers.
    public var interval: Duration
    /// Extra request headers.
    public var headers: [String: String]
    /// How its answers are read (`SourceKinds` names every kind).
    public var kind: SourceKind.ID

    public init(
        id: SourceID, name: String, url: URL, interval: Duration = .seconds(5), headers: [String: String] = [:],
        kind: SourceKind.ID = .feed
    ) {
        self.id = id
        self.name = name
        self.url = url
        self.interval = interval
        self.headers = headers
        self.kind = kind
    }

    /// What makes one request differ from another (url, kind, headers), as 16 hex digits. Stored
    /// validators carry the key of the request they answered; after a change of any of the three
    /// (at run time or across a restart) they are not sent, so the first answer is read whole.
    public var requestKey: String {
        let headerLines = headers.map { "\($0.key.lowercased()): \($0.value)" }.sorted()
        return StableHash.hex(([url.absoluteString, kind.rawValue] + headerLines).joined(separator: "\n"))
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, url, interval, headers, kind
    }

    /// A source written before kinds existed is a feed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(SourceID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        url = try container.decode(URL.self, forKey: .url)
        interval = try container.decode(Duration.self, forKey: .interval)
        headers = try container.decode([String: String].self, forKey: .headers)
        kind = try container.decodeIfPresent(SourceKind.ID.self, forKey: .kind) ?? .feed
    }
}
