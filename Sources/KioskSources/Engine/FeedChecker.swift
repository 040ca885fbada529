import KioskCore

/// One check of one feed: fetch with the stored validators, parse, and say what changed.
struct FeedChecker: Sendable {
    let fetcher: any Fetching
    let limits: ParserLimits

    enum Outcome: Sendable {
        /// 304, or the same entries as before.
        case unchanged(Validators, FreshnessHint)
        case changed([Entry], Validators, FreshnessHint)
        case failed(SourceError, retryAfter: Duration?)
    }

    /// How long a source asked to be left alone after an answer, from two places.
    struct FreshnessHint: Sendable, Hashable {
        /// This answer's `Cache-Control`/`Expires`.
        var headers: Duration?
        /// The feed's own `<ttl>`, as last read: a 304 has no body, so the previous one holds.
        var feed: Duration?

        /// The longer of the two: each is the source asking not to be read sooner.
        var wait: Duration? {
            switch (headers, feed) {
            case (let headers?, let feed?): max(headers, feed)
            case (let one?, nil), (nil, let one?): one
            case (nil, nil): nil
            }
        }
    }

    /// - Parameter feedTTL: the `<ttl>` of the feed's last body, which a 304 keeps in force.
    func check(_ source: PolledSource, validators: Validators, previous: [Entry]?, feedTTL: Duration?) async -> Outcome {
        let request = FetchRequest(url: source.url, headers: source.headers, validators: validators)
        do {
            switch try await fetcher.fetch(request) {
            case .notModified(let freshFor):
                return .unchanged(validators, FreshnessHint(headers: freshFor, feed: feedTTL))
            case .fetched(let body):
                let feed = try parse(body)
                let hint = FreshnessHint(headers: body.freshFor, feed: feed.ttl.map(Self.duration(minutes:)))
                // Identity and content: Entry is Hashable over every field.
                return feed.entries == previous
                    ? .unchanged(body.validators, hint) : .changed(feed.entries, body.validators, hint)
            }
        } catch let error as FetchError {
            if case .status(_, _, let retryAfter) = error { return .failed(.fetch(error), retryAfter: retryAfter) }
            return .failed(.fetch(error), retryAfter: nil)
        } catch let error as FeedError {
            return .failed(.parse(error), retryAfter: nil)
        } catch {
            return .failed(.fetch(.network(String(describing: error))), retryAfter: nil)
        }
    }

    private func parse(_ body: FetchedBody) throws(FeedError) -> Feed {
        try FeedParser.parse(body.bytes, charsetHint: body.charset, limits: limits)
    }

    /// A `<ttl>` as a duration, at most a day (the engine's cap) so no feed's number can overflow.
    static func duration(minutes: Int) -> Duration {
        .seconds(min(max(minutes, 0), 24 * 60) * 60)
    }
}
