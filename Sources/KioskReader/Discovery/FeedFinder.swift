import Foundation
import KioskCore
import KioskHTML
import KioskModel
import KioskSources

/// Turns what a user typed (a feed address or a site's) into feeds they can subscribe to.
///
/// A feed address is read as a feed. A page is searched for the feeds it links
/// (`FeedDiscovery`), each read to check it is one; a page that links none has the usual feed
/// paths tried. Every address fetched, the linked ones included, passes the `AddressPolicy`.
public struct FeedFinder: Sendable {
    private let fetcher: any Fetching
    private let policy: AddressPolicy
    private let maxBytes: Int
    private let timeout: Duration
    /// Linked feeds read at most: a page with 500 "RSS" links costs eight fetches, not 500.
    private let maxCandidates: Int

    public init(
        fetcher: any Fetching, policy: AddressPolicy, maxBytes: Int = 8 << 20, timeout: Duration = .seconds(10),
        maxCandidates: Int = 8
    ) {
        self.fetcher = fetcher
        self.policy = policy
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.maxCandidates = maxCandidates
    }

    /// The feeds at `address`: one, or several to pick from.
    public func find(_ address: String) async throws(FeedFinderError) -> FeedSearch {
        let url = try Self.url(from: address)
        if let refusal = policy.refusal(for: url) { throw .addressRefused(refusal) }
        let body = try await fetch(url)
        if !FeedDiscovery.looksLikeHTML(body.bytes, contentType: body.contentType) {
            do {
                return .feed(try Self.found(body))
            } catch {
                throw .notAFeed(Self.reason(error))
            }
        }
        let page = body.finalURL.absoluteString
        let linked = FeedDiscovery.candidates(inHTML: body.bytes, pageURL: page, charsetHint: body.charset)
        let found = await read(Array(linked.prefix(maxCandidates)))
        switch found.count {
        case 0: break
        case 1: return .feed(found[0])
        default: return .choices(found)
        }
        // No working link: the usual places, in order; the first feed found is the one.
        for candidate in FeedDiscovery.commonPathCandidates(for: page) {
            if let feed = await read(candidate) { return .feed(feed) }
        }
        throw .nothingFound(body.finalURL.host ?? page)
    }

    /// An absolute http(s) URL from what was typed: `example.com` means https, `feed:` forms
    /// are unwrapped.
    static func url(from address: String) throws(FeedFinderError) -> URL {
        var text = address.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 2_048, !text.contains(where: { $0.isWhitespace }) else {
            throw .invalidAddress(String(address.prefix(80)))
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("feed://") {
            text = "http://" + text.dropFirst("feed://".count)
        } else if lowered.hasPrefix("feed:") {
            text = String(text.dropFirst("feed:".count))
        } else if !lowered.hasPrefix("http://") && !lowered.hasPrefix("https://") {
            guard !lowered.contains("://"), !Self.hasOtherScheme(lowered) else {
                throw .addressRefused("only http and https addresses can be subscribed to")
            }
            text = "https://" + text
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
            throw .invalidAddress(String(address.prefix(80)))
        }
        return url
    }

    /// `javascript:…`, `mailto:…`, `data:…`: a scheme, not a host (`example.com:8080` is a host
    /// and a port).
    private static func hasOtherScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        let rest = text[text.index(after: colon)...]
        return !scheme.isEmpty && !scheme.contains(".") && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" }
            && !(rest.first?.isNumber ?? false)
    }

    // MARK: - Reading

    private func fetch(_ url: URL) async throws(FeedFinderError) -> FetchedBody {
        let result: FetchResult
        do {
            result = try await fetcher.fetch(FetchRequest(url: url, maxBytes: maxBytes, timeout: timeout))
        } catch {
            throw Self.translate(error)
        }
        switch result {
        case .fetched(let body): return body
        case .notModified: throw .unreachable("the site answered 304 to a request without validators")
        }
    }

    /// The candidates that are feeds, in their order, each read at most once, concurrently.
    private func read(_ candidates: [FeedCandidate]) async -> [FoundFeed] {
        await withTaskGroup(of: (Int, FoundFeed?).self) { group in
            for (index, candidate) in candidates.enumerated() {
                group.addTask { (index, await read(candidate)) }
            }
            var found: [(Int, FoundFeed)] = []
            for await (index, feed) in group {
                if let feed { found.append((index, feed)) }
            }
            var seen = Set<URL>()
            return found.sorted { $0.0 < $1.0 }.map(\.1).filter { seen.insert($0.url).inserted }
        }
    }

    private func read(_ candidate: FeedCandidate) async -> FoundFeed? {
        guard let url = URL(string: candidate.url), policy.refusal(for: url) == nil,
            let body = try? await fetch(url), !FeedDiscovery.looksLikeHTML(body.bytes, contentType: body.contentType)
        else { return nil }
        var feed = try? Self.found(body)
        if feed?.title == nil { feed?.title = candidate.title }
        return feed
    }

    private static func found(_ body: FetchedBody) throws(FeedError) -> FoundFeed {
        let feed = try FeedParser.parse(body.bytes, charsetHint: body.charset)
        return FoundFeed(
            url: body.finalURL, title: feed.title.flatMap { $0.isEmpty ? nil : $0 }, siteURL: feed.link,
            format: feed.format, entries: Array(feed.entries.prefix(5)), entryCount: feed.entries.count)
    }

    private static func reason(_ error: FeedError) -> String {
        if case .notAFeed(let what) = error { return what }
        return error.description
    }

    private static func translate(_ error: FetchError) -> FeedFinderError {
        switch error {
        case .timeout: .timedOut
        case .status(let code, _, _): .status(code: code)
        case .tooLarge(let limit): .tooLarge(limit: limit)
        case .tooManyRedirects: .unreachable("too many redirects")
        case .network(let why): .unreachable(why)
        case .tls(let why): .unreachable("the secure connection failed: \(why)")
        case .invalidURL(let url): .invalidAddress(url)
        case .refused(let why): .addressRefused(why)
        }
    }
}
