import Foundation

/// One version of an evolving feed, ready to serve.
struct FeedEdition: Sendable {
    /// How many entries were added since the captured original (0 = the capture itself).
    let version: Int
    /// Quoted, e.g. `"business-3"`.
    let etag: String
    /// Whole seconds, strictly increasing from one version to the next, so `If-Modified-Since`
    /// never mistakes a newer version for the one the client holds.
    let lastModified: Date
    let body: [UInt8]
}
