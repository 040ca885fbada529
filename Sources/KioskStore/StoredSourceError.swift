import KioskCore
import KioskSources

// SourceError is not Codable (KioskSources stays free of persistence concerns), so the store
// keeps this mirror of it as JSON next to the message: a stored error rebuilds exactly, case and
// payload, not as an approximation. Only when that JSON is missing or unreadable (a row written
// by hand, a case from a newer Kiosk) is the message rebuilt as `.unreadable(message)`, the case
// whose payload is free text.

/// `SourceError`, in a form JSON can hold.
enum StoredSourceError: Codable, Hashable {
    case fetch(StoredFetchError)
    case parse(StoredFeedError)
    case unreadable(String)
    case superseded
    case notConfigured(String)

    init(_ error: SourceError) {
        switch error {
        case .fetch(let error): self = .fetch(StoredFetchError(error))
        case .parse(let error): self = .parse(StoredFeedError(error))
        case .unreadable(let why): self = .unreadable(why)
        case .superseded: self = .superseded
        case .notConfigured(let what): self = .notConfigured(what)
        }
    }

    var sourceError: SourceError {
        switch self {
        case .fetch(let error): .fetch(error.fetchError)
        case .parse(let error): .parse(error.feedError)
        case .unreadable(let why): .unreadable(why)
        case .superseded: .superseded
        case .notConfigured(let what): .notConfigured(what)
        }
    }
}

/// `FetchError`, in a form JSON can hold.
enum StoredFetchError: Codable, Hashable {
    case timeout
    case status(code: Int, message: String?, retryAfter: Duration?)
    case tooLarge(limit: Int)
    case tooManyRedirects
    case network(String)
    case invalidURL(String)

    init(_ error: FetchError) {
        switch error {
        case .timeout: self = .timeout
        case .status(let code, let message, let retryAfter): self = .status(code: code, message: message, retryAfter: retryAfter)
        case .tooLarge(let limit): self = .tooLarge(limit: limit)
        case .tooManyRedirects: self = .tooManyRedirects
        case .network(let why): self = .network(why)
        case .invalidURL(let url): self = .invalidURL(url)
        }
    }

    var fetchError: FetchError {
        switch self {
        case .timeout: .timeout
        case .status(let code, let message, let retryAfter): .status(code: code, message: message, retryAfter: retryAfter)
        case .tooLarge(let limit): .tooLarge(limit: limit)
        case .tooManyRedirects: .tooManyRedirects
        case .network(let why): .network(why)
        case .invalidURL(let url): .invalidURL(url)
        }
    }
}

/// `FeedError`, in a form JSON can hold.
enum StoredFeedError: Codable, Hashable {
    case notAFeed(String)
    case tooLarge(limit: Int)
    case tooDeep(limit: Int)
    case malformed(String, line: Int, column: Int)
    case empty

    init(_ error: FeedError) {
        switch error {
        case .notAFeed(let what): self = .notAFeed(what)
        case .tooLarge(let limit): self = .tooLarge(limit: limit)
        case .tooDeep(let limit): self = .tooDeep(limit: limit)
        case .malformed(let why, let line, let column): self = .malformed(why, line: line, column: column)
        case .empty: self = .empty
        }
    }

    var feedError: FeedError {
        switch self {
        case .notAFeed(let what): .notAFeed(what)
        case .tooLarge(let limit): .tooLarge(limit: limit)
        case .tooDeep(let limit): .tooDeep(limit: limit)
        case .malformed(let why, let line, let column): .malformed(why, line: line, column: column)
        case .empty: .empty
        }
    }
}
