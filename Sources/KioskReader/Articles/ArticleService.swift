import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Logging

/// The reader view's articles: an entry's page fetched through the guarded fetcher (the same
/// destination guard as feeds and images), read by the extractor, and kept with the entry, so
/// each page is fetched once however many people or pages ask. Politely: at most
/// `Limits.perHost` pages of one host at once. A failure is kept too, as a sentence, and tried
/// again only after `Limits.retryFailuresAfter`.
public actor ArticleService {
    public struct Limits: Sendable, Hashable {
        /// Largest page read.
        public var maxBytes = 5 << 20
        /// Time allowed for a page, redirects and body included.
        public var timeout: Duration = .seconds(10)
        /// Pages of one host fetched at once.
        public var perHost = 2
        /// How long a failure stands before a new request fetches the page again.
        public var retryFailuresAfter: Duration = .seconds(3_600)
        /// How long another replica's claim on a page is waited for before fetching it here
        /// (longer than a fetch may take, so a live claim is always waited out).
        public var claimWait: Duration = .seconds(20)
        /// How often the store is asked whether the claimed page has come.
        public var claimPoll: Duration = .milliseconds(250)

        public init() {}
    }

    /// Reads a page's bytes (from `url`, with the charset its headers named) into its article.
    public typealias Extract = @Sendable (_ bytes: [UInt8], _ url: URL, _ charset: String?) throws -> ReaderArticle

    private let store: any ArticleStore
    private let fetcher: any Fetching
    private let extract: Extract
    private let limits: Limits
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var inFlight: [Int64: Task<StoredArticle, Never>] = [:]
    private var busyHosts: [String: Int] = [:]
    private var waitingHosts: [String: [CheckedContinuation<Void, Never>]] = [:]

    public init(
        store: any ArticleStore, fetcher: any Fetching, extract: @escaping Extract, limits: Limits = Limits(),
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "kiosk.articles")
    ) {
        self.store = store
        self.fetcher = fetcher
        self.extract = extract
        self.limits = limits
        self.now = now
        self.logger = logger
    }

    /// The article of entry `id` (whose link is `link`): the one kept, else the page fetched and
    /// read now. A failure is an outcome, never an error: its sentence says why.
    public func article(entry id: Int64, link: String?) async -> StoredArticle {
        if let kept = await kept(id), !isStale(kept) { return kept }
        if let running = inFlight[id] { return await running.value }
        let task = Task { await self.fetchAndKeep(id, link: link) }
        inFlight[id] = task
        let outcome = await task.value
        inFlight[id] = nil
        return outcome
    }

    /// The article kept for `id`, if any (a store that cannot be read means fetching again).
    public func kept(_ id: Int64) async -> StoredArticle? {
        do {
            return try await store.article(entry: id)
        } catch {
            logger.warning("cannot read a kept article", metadata: ["entry": "\(id)", "error": "\(error)"])
            return nil
        }
    }

    private func isStale(_ kept: StoredArticle) -> Bool {
        guard kept.article == nil else { return false }
        return now().timeIntervalSince(kept.fetchedAt) >= Double(limits.retryFailuresAfter.components.seconds)
    }

    private func fetchAndKeep(_ id: Int64, link: String?) async -> StoredArticle {
        // Replicas sharing the database fetch a page once: the one holding the claim reads it,
        // the others wait for what it keeps.
        if await !claim(id) {
            if let theirs = await waitForClaimed(id) { return theirs }
        } else if let kept = await kept(id), !isStale(kept) {
            // Another replica kept it between this one's first look and its claim (keeping
            // ends a claim): nothing to fetch.
            return kept
        }
        let outcome = await read(link)
        do {
            try await store.saveArticle(outcome, entry: id)
        } catch {
            logger.warning("cannot keep an article", metadata: ["entry": "\(id)", "error": "\(error)"])
        }
        return outcome
    }

    /// Whether this replica may fetch `id`'s page now (a store that cannot answer: yes).
    private func claim(_ id: Int64) async -> Bool {
        let now = now()
        let until = now.addingTimeInterval(Double(limits.claimWait.components.seconds))
        do {
            return try await store.claimArticleFetch(entry: id, until: until, now: now)
        } catch {
            logger.warning("cannot claim an article", metadata: ["entry": "\(id)", "error": "\(error)"])
            return true
        }
    }

    /// What the replica holding `id`'s claim keeps, waited for up to `claimWait`; nil when it
    /// kept nothing by then (it died, say), and the page is fetched here.
    private func waitForClaimed(_ id: Int64) async -> StoredArticle? {
        let clock = ContinuousClock()
        let deadline = clock.now + limits.claimWait
        while clock.now < deadline {
            do { try await clock.sleep(for: limits.claimPoll) } catch { return nil }
            if let kept = await kept(id), !isStale(kept) { return kept }
        }
        return nil
    }

    /// The page at `link`, fetched (within the limits, one of at most `perHost` of its host) and read.
    private func read(_ link: String?) async -> StoredArticle {
        guard let link, let url = URL(string: link), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host?.lowercased(), !host.isEmpty
        else { return StoredArticle(.failed("the entry has no link to a web page"), fetchedAt: now()) }
        await acquire(host)
        let result: Result<FetchResult, FetchError>
        do {
            result = .success(try await fetcher.fetch(FetchRequest(
                url: url, headers: ["Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"],
                maxBytes: limits.maxBytes, timeout: limits.timeout)))
        } catch {
            result = .failure(error)
        }
        release(host)
        switch result {
        case .failure(let error):
            return StoredArticle(.failed(ArticleFailure.sentence(for: error, limits: limits)), fetchedAt: now())
        case .success(.notModified):
            return StoredArticle(.failed("the site sent no page"), fetchedAt: now())
        case .success(.fetched(let body)):
            if let refusal = ArticleFailure.notAPage(contentType: body.contentType) {
                return StoredArticle(.failed(refusal), url: body.finalURL.absoluteString, fetchedAt: now())
            }
            let outcome = await Self.extracting(body, with: extract)
            return StoredArticle(outcome, url: body.finalURL.absoluteString, fetchedAt: now())
        }
    }

    /// Reads a page off the actor: extraction is the CPU-heavy part, and other entries' requests
    /// go on meanwhile.
    private nonisolated static func extracting(_ body: FetchedBody, with extract: Extract) async -> StoredArticle.Outcome {
        do {
            return .found(try extract(body.bytes, body.finalURL, ArticleFailure.charset(of: body.contentType)))
        } catch let error as ArticleError {
            return .failed(error.description)
        } catch {
            return .failed("the page could not be read")
        }
    }

    // MARK: - Politeness per host

    private func acquire(_ host: String) async {
        if busyHosts[host, default: 0] < max(1, limits.perHost) {
            busyHosts[host, default: 0] += 1
            return
        }
        // The slot is handed over by `release`, still counted as busy.
        await withCheckedContinuation { waitingHosts[host, default: []].append($0) }
    }

    private func release(_ host: String) {
        if var waiting = waitingHosts[host], !waiting.isEmpty {
            let next = waiting.removeFirst()
            waitingHosts[host] = waiting.isEmpty ? nil : waiting
            next.resume()
            return
        }
        busyHosts[host, default: 1] -= 1
        if busyHosts[host] == 0 { busyHosts[host] = nil }
    }
}
