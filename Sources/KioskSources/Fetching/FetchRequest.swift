import Foundation
import KioskModel

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
