import Foundation
import KioskModel

/// One HTTP GET, with the validators of the last good answer so an unchanged source costs a 304;
/// or, with a `body`, one POST (a Web Push message, a webhook), whose redirects are not followed.
public struct FetchRequest: Sendable, Hashable {
    public var url: URL
    /// What a POST sends; nil for a GET.
    public var body: [UInt8]?
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
        timeout: Duration = .seconds(15), body: [UInt8]? = nil
    ) {
        self.url = url
        self.body = body
        self.headers = headers
        self.validators = validators
        self.maxBytes = maxBytes
        self.timeout = timeout
    }
}
