import Foundation
import KioskModel

/// A document fetched on demand (facts, top albums): conditional GETs against the last good
/// answer, which is kept when a later fetch or parse fails.
public actor CachedResource<Value: Sendable> {
    private let url: URL?
    private let name: String
    private let fetcher: any Fetching
    private let parse: @Sendable (FetchedBody) throws -> Value
    private var last: Value?
    private var validators = Validators()
    private var inFlight: Task<Loaded<Value>, Never>?

    /// - Parameters:
    ///   - name: what the user calls the source, for "not configured" errors.
    ///   - parse: turns a body into the value; its error's description is shown to the user.
    public init(name: String, url: URL?, fetcher: any Fetching, parse: @escaping @Sendable (FetchedBody) throws -> Value) {
        self.name = name
        self.url = url
        self.fetcher = fetcher
        self.parse = parse
    }

    /// The current value, refreshed from the source. Concurrent callers share one fetch.
    public func load() async -> Loaded<Value> {
        await (inFlight ?? startRefresh()).value
    }

    /// Starts the one refresh (callers join it while it runs); it clears itself before its
    /// outcome is handed out, so whoever has the outcome can start the next one.
    private func startRefresh() -> Task<Loaded<Value>, Never> {
        let task = Task {
            let outcome = await self.refresh()
            self.refreshEnded()
            return outcome
        }
        inFlight = task
        return task
    }

    private func refreshEnded() { inFlight = nil }

    /// The value as last read, without asking the source.
    public var cached: Value? { last }

    /// What a screen shows: the value as last read, at once; from the source when there is none
    /// yet. When the reader asked to refresh and there is a value, it comes at once too, marked
    /// `refreshing`, while the refresh goes on (a slow source never holds the page); `settled()`
    /// gives the outcome when it lands.
    public func current(refresh: Bool) async -> Loaded<Value> {
        guard let last else { return await load() }
        guard refresh else { return Loaded(value: last, error: nil) }
        if inFlight == nil { _ = startRefresh() }
        return Loaded(value: last, error: nil, refreshing: true)
    }

    /// The outcome of the refresh under way (or the value as last read when none is).
    public func settled() async -> Loaded<Value> {
        if let inFlight { return await inFlight.value }
        return Loaded(value: last, error: nil)
    }


    private func refresh() async -> Loaded<Value> {
        guard let url else { return Loaded(value: last, error: .notConfigured(name)) }
        let request = FetchRequest(url: url, validators: last == nil ? Validators() : validators)
        do {
            switch try await fetcher.fetch(request) {
            case .notModified:
                return Loaded(value: last, error: nil)
            case .fetched(let body):
                let value: Value
                do {
                    value = try parse(body)
                } catch {
                    return Loaded(value: last, error: .unreadable(String(describing: error)))
                }
                last = value
                validators = body.validators
                return Loaded(value: value, error: nil)
            }
        } catch {
            return Loaded(value: last, error: .fetch(error))
        }
    }
}
