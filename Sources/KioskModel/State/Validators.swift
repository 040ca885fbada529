/// HTTP cache validators of a response.
public struct Validators: Sendable, Hashable, Codable {
    public var etag: String?
    public var lastModified: String?
    /// The request they answered (`PolledSource.requestKey`), so they are never sent with another:
    /// an answer read as one kind, or fetched with other headers, is no proof about a new request.
    /// Nil for validators from before this was kept, which a check then does not send.
    public var request: String?

    public init(etag: String? = nil, lastModified: String? = nil, request: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.request = request
    }

    /// These validators if they answered `request`; none otherwise.
    public func sent(with request: String) -> Validators {
        self.request == request ? self : Validators()
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
