import Foundation
import KioskCore
import KioskModel
import KioskSources

/// An episode's Podcasting 2.0 chapters, fetched through the guarded fetcher (the destination
/// guard of feeds, images and articles) when a player asks for them, read by ``PodcastChapters``,
/// and kept in memory for the next listener: a chapters file does not change once published.
public actor ChapterService {
    /// Files kept; past that the oldest half is forgotten (a few hundred bytes each).
    static let kept = 512

    private let fetcher: any Fetching
    private let timeout: Duration
    private var cache: [String: [Chapter]] = [:]
    private var order: [String] = []

    public init(fetcher: any Fetching, timeout: Duration = .seconds(10)) {
        self.fetcher = fetcher
        self.timeout = timeout
    }

    /// The chapters at `link`, or why there are none, said for the listener.
    public func chapters(at link: String) async -> Result<[Chapter], ChapterFailure> {
        if let known = cache[link] { return .success(known) }
        guard let url = URL(string: link), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return .failure(ChapterFailure(message: "the chapters link is not a web address")) }
        let result: FetchResult
        do {
            result = try await fetcher.fetch(FetchRequest(url: url, maxBytes: PodcastChapters.maxBytes, timeout: timeout))
        } catch {
            return .failure(ChapterFailure(message: "the chapters could not be fetched (\(error))"))
        }
        guard case .fetched(let body) = result else {
            return .failure(ChapterFailure(message: "the chapters could not be fetched"))
        }
        do {
            let chapters = try PodcastChapters.parse(body.bytes)
            remember(chapters, for: link)
            return .success(chapters)
        } catch {
            return .failure(ChapterFailure(message: error.description))
        }
    }

    private func remember(_ chapters: [Chapter], for link: String) {
        if order.count >= Self.kept {
            for old in order.prefix(Self.kept / 2) { cache[old] = nil }
            order.removeFirst(Self.kept / 2)
        }
        cache[link] = chapters
        order.append(link)
    }
}

/// Why an episode's chapters are not shown.
public struct ChapterFailure: Error, Sendable, Hashable {
    public var message: String
}
