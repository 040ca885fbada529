import Foundation

/// The captured payloads bundled in `Resources/`, read once when the server starts.
struct DemoResources: Sendable {
    let feeds: [DemoSource: String]
    let facts: [UInt8]
    let albums: String
    let topHeadlines: [UInt8]
    let newsAPIKeyInvalid: [UInt8]
    let newsAPIKeyMissing: [UInt8]
    let newsAPIMaximumResults: [UInt8]
    let jokeHeaderMissing: [UInt8]
    let jokeServerError: [UInt8]

    /// Reads every payload; throws ``DemoError/missingResource(_:)`` naming the first one absent.
    static func load() throws(DemoError) -> DemoResources {
        func text(_ name: String) throws(DemoError) -> String {
            guard let text = String(bytes: try bytes(name), encoding: .utf8) else { throw .missingResource(name) }
            return text
        }
        var feeds: [DemoSource: String] = [:]
        for source in DemoSource.allCases where source.isFeed {
            feeds[source] = try text("reuters_\(source.rawValue).xml")
        }
        return DemoResources(
            feeds: feeds,
            facts: try bytes("facts.json"),
            albums: try text("apple_v2_albums.json"),
            topHeadlines: try bytes("newsapi_top_headlines.json"),
            newsAPIKeyInvalid: try bytes("newsapi_error.json"),
            newsAPIKeyMissing: try bytes("newsapi_error_apikey_missing.json"),
            newsAPIMaximumResults: try bytes("newsapi_error_max_results.json"),
            jokeHeaderMissing: try bytes("switter_error_400.json"),
            jokeServerError: try bytes("switter_error_500.json")
        )
    }

    /// The exact bytes of `Resources/<name>`, so facts.json keeps its Latin-1 byte.
    static func bytes(_ name: String) throws(DemoError) -> [UInt8] {
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let base = String(name[..<dot])
        let ext = dot < name.endIndex ? String(name[name.index(after: dot)...]) : nil
        guard let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "Resources"),
            let data = try? Data(contentsOf: url)
        else { throw .missingResource(name) }
        return [UInt8](data)
    }
}
