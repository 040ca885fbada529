import Foundation
import KioskModel

/// What a fetch brought back.
public enum FetchResult: Sendable, Hashable {
    /// 304: the source has not changed since the validators sent. `freshFor` is how long the
    /// answer's `Cache-Control`/`Expires` say it stays fresh, when they say.
    case notModified(freshFor: Duration?)
    /// A 2xx answer with its body.
    case fetched(FetchedBody)

    /// How long the answer says it stays fresh, whichever kind it is.
    public var freshFor: Duration? {
        switch self {
        case .notModified(let freshFor): freshFor
        case .fetched(let body): body.freshFor
        }
    }
}

/// A successful response's body and what a parser and the next request need of its headers.
public struct FetchedBody: Sendable, Hashable {
    public var bytes: [UInt8]
    /// The `Content-Type` header, e.g. `application/rss+xml; charset=utf-8`.
    public var contentType: String?
    /// Validators to send with the next request.
    public var validators: Validators
    /// Where the body came from after redirects.
    public var finalURL: URL
    /// How long a 200's `Cache-Control`/`Expires` say the body stays fresh (nil: they don't),
    /// so a poller can ask no more often than the source wants.
    public var freshFor: Duration?

    public init(
        bytes: [UInt8], contentType: String? = nil, validators: Validators = Validators(), finalURL: URL,
        freshFor: Duration? = nil
    ) {
        self.bytes = bytes
        self.contentType = contentType
        self.validators = validators
        self.finalURL = finalURL
        self.freshFor = freshFor
    }

    /// The `charset` parameter of the content type, for the parser's encoding detection.
    public var charset: String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
            }
        }
        return nil
    }
}
