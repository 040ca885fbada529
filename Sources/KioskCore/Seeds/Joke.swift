/// A joke from the Switter joke API (`GET /api/joke` → `{"content": "..."}`).
public struct Joke: Sendable, Hashable, Codable {
    /// The joke's text, as the server gave it.
    public var content: String

    /// Creates a joke.
    public init(content: String) {
        self.content = content
    }
}
