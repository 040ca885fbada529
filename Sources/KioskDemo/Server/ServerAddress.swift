import Foundation

/// Where the server is listening, published once it is bound; waiters suspend until then.
actor ServerAddress {
    private var url: URL?
    private var waiters: [CheckedContinuation<URL, Never>] = []

    /// The base URL, waiting until ``publish(_:)`` has been called.
    func wait() async -> URL {
        if let url { return url }
        return await withCheckedContinuation { waiters.append($0) }
    }

    /// The base URL if already bound.
    var current: URL? { url }

    /// Records the base URL and wakes every waiter; later calls are ignored (the first binding wins).
    func publish(_ url: URL) {
        guard self.url == nil else { return }
        self.url = url
        for waiter in waiters { waiter.resume(returning: url) }
        waiters = []
    }

    /// `http://host:port`, bracketing IPv6 literals.
    static func baseURL(host: String, port: Int) -> URL? {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(hostPart):\(port)")
    }
}
