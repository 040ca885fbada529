/// An image ready to serve: bytes that start with a known image signature, and the type those bytes are.
public struct CachedImage: Sendable, Hashable {
    /// The image file, unchanged from the source.
    public var bytes: [UInt8]
    /// The type the bytes' signature says (e.g. `image/png`), not the type the source claimed:
    /// a page serving it must not let a mislabelled file be read as something else.
    public var contentType: String

    /// An image with its content type.
    public init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}
