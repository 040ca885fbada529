import KioskModel

/// Something that performs HTTP GETs: ``HTTPFetcher`` over the network, or a test double.
public protocol Fetching: Sendable {
    /// Fetches `request`, honouring its validators, size cap and timeout.
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult
}
