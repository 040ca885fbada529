import Foundation

/// One HTTP GET, with the validators of the last good answer so an unchanged source costs a 304.
public struct FetchRequest: Sendable, Hashable {
    public var url: URL
    /// Extra headers for this source (e.g. Switter's `x-device-uuid`).
    public var headers: [String: String]
    /// `ETag` / `Last-Modified` of the last good answer, sent as `If-None-Match` / `If-Modified-Since`.
    public var validators: Validators
    /// Largest body accepted, after decompression.
    public var maxBytes: Int
    /// Time allowed for the whole exchange, body included.
    public var timeout: Duration

    public init(
        url: URL, headers: [String: String] = [:], validators: Validators = Validators(), maxBytes: Int = 16 << 20,
        timeout: Duration = .seconds(15)
    ) {
        self.url = url
        self.headers = headers
        self.validators = validators
        self.maxBytes = maxBytes
        self.timeout = timeout
    }
}

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
