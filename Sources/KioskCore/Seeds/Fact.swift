/// One row of the "About Canada" facts feed. Any field may be missing.
public struct Fact: Sendable, Hashable, Codable {
    /// The fact's heading, trimmed.
    public var title: String?
    /// The fact's text, trimmed.
    public var description: String?
    /// The feed's `imageHref`.
    public var imageURL: String?

    /// Creates a fact; blank fields should be nil.
    public init(title: String? = nil, description: String? = nil, imageURL: String? = nil) {
        self.title = title
        self.description = description
        self.imageURL = imageURL
    }
}
