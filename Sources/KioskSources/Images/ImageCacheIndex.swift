import Foundation

/// What the disk image cache holds, one file per image, as it reports it to an index (the store's
/// `images` table), so what is cached can be listed and measured without reading the directory.
public struct ImageFileRecord: Sendable, Hashable, Codable {
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

/// Told of every file the disk image cache writes and removes. Best effort: the files are the
/// truth, and an index that fails only loses its own accuracy.
public protocol ImageCacheIndex: Sendable {
    func imagesChanged(stored: [ImageFileRecord], removedFiles: [String]) async
}
