import KioskCore
import KioskModel

/// One check of one source: fetch with the stored validators, have the source's kind read the
/// answer, and say what changed.
struct FeedChecker: Sendable {
    let fetcher: any Fetching
    let limits: ParserLimits
    let kinds: SourceKinds

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
        // Asked before any request: a source of a kind this Kiosk does not know costs its host nothing.
        guard let kind = kinds[source.kind] else {
            return .failed(.notConfigured("the kind of source “\(source.kind)”"), retryAfter: nil)
        }
        let body: FetchedBody
        do throws(FetchError) {
            switch try await fetcher.fetch(FetchRequest(url: source.url, headers: source.headers, validators: validators)) {
            case .notModified(let freshFor):
                return .unchanged(validators, FreshnessHint(headers: freshFor, feed: feedTTL))
            case .fetched(let fetched):
                body = fetched
            }
        } catch {
            if case .status(_, _, let retryAfter) = error { return .failed(.fetch(error), retryAfter: retryAfter) }
            return .failed(.fetch(error), retryAfter: nil)
        }
        let reading: SourceKind.Reading
        do {
            reading = try kind.read(body.bytes, body.charset, limits)
        } catch let error as FeedError {
            return .failed(.parse(error), retryAfter: nil)
        } catch {
            return .failed(.unreadable(String(describing: error)), retryAfter: nil)
        }
        let hint = FreshnessHint(headers: body.freshFor, feed: reading.ttlMinutes.map(Self.duration(minutes:)))
        // Identity and content: Entry is Hashable over every field.
        return reading.entries == previous
            ? .unchanged(body.validators, hint) : .changed(reading.entries, body.validators, hint)
    }

    /// A `<ttl>` as a duration, at most a day (the engine's cap) so no feed's number can overflow.
    static func duration(minutes: Int) -> Duration {
        .seconds(min(max(minutes, 0), 24 * 60) * 60)
    }
}
