import Foundation
import KioskModel
import KioskSources

/// Why an article could not be shown, in a sentence a reader understands. A destination the
/// guard refused and a connection that failed read alike, so nobody learns from the message
/// which addresses or ports answer.
enum ArticleFailure {
    static func sentence(for error: FetchError, limits: ArticleService.Limits) -> String {
        switch error {
        case .status(let code, _, _) where code == 401 || code == 403 || code == 451 || code == 429:
            "the site refused to give the page (HTTP \(code))"
        case .status(let code, _, _) where code == 404 || code == 410:
            "the page is gone (HTTP \(code))"
        case .status(let code, _, _):
            "the site answered with an error (HTTP \(code))"
        case .tooLarge:
            "the page is too large (over \(FetchError.size(limits.maxBytes)))"
        case .timeout:
            "the site did not answer within \(limits.timeout.components.seconds) seconds"
        case .tooManyRedirects:
            "the page redirects too many times"
        case .invalidURL:
            "the entry has no link to a web page"
        case .refused, .network, .tls:
            "the site could not be reached"
        }
    }

    /// A refusal for an answer that is no web page (a PDF, an image...); nil for HTML, or when
    /// the server named no type (the extractor then judges the bytes).
    static func notAPage(contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let pages: Set<String> = ["text/html", "application/xhtml+xml", "text/plain", ""]
        return pages.contains(type) ? nil : "the link is not a web page (\(type))"
    }

    /// The charset a `Content-Type` names, if any.
    static func charset(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
        }
        return nil
    }
}
