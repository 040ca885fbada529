import Foundation

/// Reads the Switter joke API's responses: `{"content"}` or `{"error": true, "reason"}`.
public enum JokeParser {
    /// Parses a joke response.
    /// - Throws: ``SeedError/joke(_:)`` carrying the server's own reason when it reports an error
    ///   (400 without the `x-device-uuid` header, 500 when it has no jokes left);
    ///   ``SeedError/notJSON(_:)`` or ``SeedError/unexpectedShape(_:)`` otherwise.
    public static func parse(_ data: Data) throws(SeedError) -> Joke {
        let root = try SeedJSON.parse(data)
        guard root.object != nil else {
            throw .unexpectedShape("expected a joke, an object with \"content\"")
        }
        let reason = root["reason"]?.nonBlankString
        if root["error"]?.bool == true || (reason != nil && root["content"] == nil) {
            throw .joke(JokeError(reason: reason ?? "The joke server reported an error"))
        }
        guard let content = root["content"]?.nonBlankString else {
            throw .unexpectedShape("expected a joke, an object with a non-empty \"content\"")
        }
        return Joke(content: content)
    }
}
