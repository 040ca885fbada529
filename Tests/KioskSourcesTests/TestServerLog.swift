import Hummingbird

/// What ``TestServer`` received: how many requests per path, and each request's headers.
actor TestServerLog {
    /// A request's headers by lowercased name; repeated fields keep every value in order.
    typealias Headers = [String: [String]]

    private var counts: [String: Int] = [:]
    private var headers: [String: [Headers]] = [:]

    func record(_ request: Request) {
        var fields: Headers = [:]
        for field in request.headers {
            fields[field.name.canonicalName, default: []].append(field.value)
        }
        counts[request.uri.path, default: 0] += 1
        headers[request.uri.path, default: []].append(fields)
    }

    /// Requests received for `path` (no query).
    func count(_ path: String) -> Int { counts[path] ?? 0 }

    /// Headers of each request for `path`, oldest first.
    func headers(_ path: String) -> [Headers] { headers[path] ?? [] }
}
