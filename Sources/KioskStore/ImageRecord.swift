import Foundation

/// The image cache's index card for one image: where its bytes are on disk and what they are,
/// so a restart finds the cache it left instead of fetching every image again.
public struct ImageRecord: Sendable, Hashable, Codable {
    /// The image's source URL, as the page asked for it (the key).
    public var url: String
    /// The cache file holding the bytes, relative to the cache directory.
    public var file: String
    public var contentType: String
    public var byteCount: Int
    public var storedAt: Date

    public init(url: String, file: String, contentType: String, byteCount: Int, storedAt: Date) {
        self.url = url
        self.file = file
        self.contentType = contentType
        self.byteCount = byteCount
        self.storedAt = storedAt
    }
}
