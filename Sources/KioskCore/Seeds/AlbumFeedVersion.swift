/// Which generation of Apple's RSS generator produced an albums feed, detected from the content.
public enum AlbumFeedVersion: String, Sendable, Hashable, Codable, CaseIterable {
    /// `rss.itunes.apple.com/api/v1` (retired): per-album copyright, 200x200 artwork, ISO 8601 `updated`.
    case v1
    /// `rss.applemarketingtools.com/api/v2`: no per-album copyright, 100x100 artwork, RFC 1123 `updated`.
    case v2
}
