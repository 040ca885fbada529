import Foundation

/// Links from sources are checked before they become an `href`: only absolute http(s) URLs pass,
/// so a `javascript:` or `data:` link in a feed can never run in the page.
public enum SafeLink {
    /// `text` when it is an absolute http(s) URL with a host; nil otherwise.
    public static func http(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
            let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return nil }
        return url.absoluteString
    }
}
