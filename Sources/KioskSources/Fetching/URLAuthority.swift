import Foundation

extension URL {
    /// `host:port` in lower case, the port made explicit (80 for http, 443 for https): how the
    /// destination guard, the reader's address policy and the image signer recognise a trusted
    /// source whatever way its URL was written.
    public var sourceAuthority: String? {
        guard let host = host?.lowercased() else { return nil }
        let port = port ?? (scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host):\(port)"
    }
}
