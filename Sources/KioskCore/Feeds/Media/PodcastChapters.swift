import Foundation

/// One chapter of an episode: where it starts and what it is called.
public struct Chapter: Sendable, Hashable, Codable {
    /// Seconds from the start of the episode.
    public var start: Double
    public var title: String

    public init(start: Double, title: String) {
        self.start = start
        self.title = title
    }
}

/// What can be wrong with a chapters file.
public enum ChaptersError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(limit: Int)
    case notChapters

    public var description: String {
        switch self {
        case .tooLarge(let limit): "the chapters file is larger than \(limit / 1024) KB"
        case .notChapters: "the file is not Podcasting 2.0 JSON chapters"
        }
    }
}

/// Podcasting 2.0's JSON chapters (`{"version": "1.2.0", "chapters": [{"startTime": 0, "title":
/// "..."}]}`), read as a listener sees them: in order of their start, those marked `"toc": false`
/// (silent markers) left out, titles trimmed and bounded, at most ``maxChapters``.
public enum PodcastChapters {
    public static let maxBytes = 512 * 1024
    public static let maxChapters = 500
    static let maxTitle = 200

    private struct File: Decodable {
        struct Item: Decodable {
            var startTime: Double?
            var title: String?
            var toc: Bool?
        }
        var chapters: [Item]
    }

    public static func parse(_ bytes: [UInt8]) throws(ChaptersError) -> [Chapter] {
        guard bytes.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch {
            throw .notChapters
        }
        var chapters: [Chapter] = []
        for item in file.chapters where item.toc != false {
            guard let start = item.startTime, start.isFinite, start >= 0,
                let title = item.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty
            else { continue }
            chapters.append(Chapter(start: start, title: String(title.prefix(maxTitle))))
            if chapters.count == maxChapters { break }
        }
        return chapters.sorted { $0.start < $1.start }
    }
}
