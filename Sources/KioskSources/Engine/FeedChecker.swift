import KioskCore

/// One check of one feed: fetch with the stored validators, parse, and say what changed.
struct FeedChecker: Sendable {
    let fetcher: any Fetching
    let limits: ParserLimits

    enum Outcome: Sendable {
        /// 304, or the same entries as before.
        case unchanged(Validators)
        case changed([Entry], Validators)
        case failed(SourceError, retryAfter: Duration?)
    }

    func check(_ source: PolledSource, validators: Validators, previous: [Entry]?) async -> Outcome {
        let request = FetchRequest(url: source.url, headers: source.headers, validators: validators)
        do {
            switch try await fetcher.fetch(request) {
            case .notModified:
                return .unchanged(validators)
            case .fetched(let body):
                let feed = try parse(body)
                // Identity and content: Entry is Hashable over every field.
                return feed.entries == previous ? .unchanged(body.validators) : .changed(feed.entries, body.validators)
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
}
