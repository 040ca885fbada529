/// The screens: their tab, route and name, in tab-bar order (the six of the seed apps, and the
/// user's own reader after News).
public enum Screen: String, Sendable, CaseIterable {
    case home, news, reader, discover, facts, jokes, albums

    var path: String { self == .home ? "/" : "/\(rawValue)" }

    var label: String {
        switch self {
        case .home: "Home"
        case .news: "News"
        case .reader: "Reader"
        case .discover: "Discover"
        case .facts: "Facts"
        case .jokes: "Jokes"
        case .albums: "Top Albums"
        }
    }

    /// The tab's icon: a path in a 24×24 box, drawn with `currentColor`.
    var iconPath: String {
        switch self {
        case .home: "M3 11 12 3l9 8v10h-6v-6H9v6H3z"
        case .news: "M4 4h13v16H6a2 2 0 0 1-2-2zm13 4h3v10a2 2 0 0 1-2 2h-1M7 8h7M7 12h7M7 16h5"
        case .reader: "M5 4h11l3 3v13H5zM8 9h8M8 13h8M8 17h5"
        case .discover: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zm5 12 5 5"
        case .facts: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm0 7v7m0-10v.5"
        case .jokes: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM8 14s1.5 2 4 2 4-2 4-2M9 9.5h.01M15 9.5h.01"
        case .albums: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm0 6a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"
        }
    }
}
