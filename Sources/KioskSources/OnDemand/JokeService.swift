import Foundation
import KioskCore
import KioskModel

/// Fetches jokes, one request in flight per client: a client that asks again while its joke is
/// on the way gets that same joke, not a second request.
public actor JokeService {
    private let url: URL?
    private let fetcher: any Fetching
    private let deviceID: UUID
    private var inFlight: [String: Task<Result<Joke, SourceError>, Never>] = [:]

    /// - Parameter deviceID: this installation's identity, sent as Switter's `x-device-uuid`.
    public init(url: URL?, fetcher: any Fetching, deviceID: UUID) {
        self.url = url
        self.fetcher = fetcher
        self.deviceID = deviceID
    }

    /// A joke for `client` (a browser session, say).
    public func joke(for client: String) async -> Result<Joke, SourceError> {
        if let running = inFlight[client] { return await running.value }
        let task = Task { await self.fetchJoke() }
        inFlight[client] = task
        let result = await task.value
        inFlight[client] = nil
        return result
    }

    /// Whether a request for `client` is under way.
    public func isFetching(for client: String) -> Bool { inFlight[client] != nil }

    private func fetchJoke() async -> Result<Joke, SourceError> {
        guard let url else { return .failure(.notConfigured("The joke source")) }
        let request = FetchRequest(url: url, headers: ["x-device-uuid": deviceID.uuidString], timeout: .seconds(10))
        do {
            guard case .fetched(let body) = try await fetcher.fetch(request) else {
                return .failure(.unreadable("the joke source answered 304 to a plain request"))
            }
            do {
                return .success(try JokeParser.parse(Data(body.bytes)))
            } catch {
                return .failure(.unreadable(error.description))
            }
        } catch {
            return .failure(.fetch(error))
        }
    }
}
