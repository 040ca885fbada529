/// A source's stable name within Kiosk (`business`, `facts`, or a user's own `my-blog`).
public struct SourceID: RawRepresentable, Hashable, Sendable, Codable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }
    public static func < (lhs: SourceID, rhs: SourceID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let business: SourceID = "business"
    public static let entertainment: SourceID = "entertainment"
    public static let environment: SourceID = "environment"
    /// The merged *Entertainment + Environment* source of the News screen.
    public static let entertainmentAndEnvironment: SourceID = "entertainment+environment"
    public static let facts: SourceID = "facts"
    public static let albums: SourceID = "albums"
    public static let newsAPI: SourceID = "newsapi"
    public static let jokes: SourceID = "jokes"
}
