import Foundation
import Hummingbird
import KioskCore

/// NewsAPI v2 `top-headlines` and `everything` over the demo catalogue, with NewsAPI's own key,
/// paging and error behaviour (401 without a valid key, 426 past the free plan's 100 results).
struct NewsAPIEndpoint: Sendable {
    static let defaultPageSize = 20
    static let maximumPageSize = 100
    static let maximumResults = 100

    let catalogue: NewsCatalogue
    let key: String
    let resources: DemoResources

    /// The answer to `GET /newsapi/v2/<endpoint>`.
    func respond(endpoint: Substring, query: QueryItems, headers: HTTPFields) -> DemoReply {
        guard endpoint == "top-headlines" || endpoint == "everything" else {
            return error(.notFound, code: "routeNotFound", message: "The requested endpoint does not exist.")
        }
        let presented = query["apiKey"] ?? HTTPHeader.value("x-api-key", in: headers) ?? bearerToken(headers)
        guard let presented, !presented.isEmpty else { return .json(resources.newsAPIKeyMissing, status: .unauthorized) }
        guard presented == key else { return .json(resources.newsAPIKeyInvalid, status: .unauthorized) }

        let pageSize = min(max(query.integer("pageSize") ?? Self.defaultPageSize, 1), Self.maximumPageSize)
        let page = max(query.integer("page") ?? 1, 1)
        guard page * pageSize <= Self.maximumResults else { return tooManyResults(page: page, pageSize: pageSize) }

        let words = (query["q"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        var articles: [NewsArticle]
        if endpoint == "everything" {
            guard !words.isEmpty else {
                return error(
                    .badRequest, code: "parametersMissing",
                    message: "Required parameters are missing, the scope of your search is too broad. "
                        + "Please set any of the following required parameters and try again: q, qInTitle, sources, domains.")
            }
            articles = catalogue.all
        } else {
            let category = (query["category"] ?? "general").lowercased()
            guard let found = catalogue.byCategory[category] else {
                let names = NewsCategory.all.map(\.name).joined(separator: ", ")
                return error(.badRequest, code: "parameterInvalid", message: "The category parameter is invalid. Use one of: \(names).")
            }
            articles = found
        }
        if !words.isEmpty {
            articles = articles.filter { $0.matches(words: words) }
        }
        let pageArticles = Array(articles.dropFirst((page - 1) * pageSize).prefix(pageSize))
        return .json(Array(NewsArticlePage(totalResults: articles.count, articles: pageArticles).json.utf8))
    }

    /// The captured 426 body, naming the range this request asked for as NewsAPI does.
    private func tooManyResults(page: Int, pageSize: Int) -> DemoReply {
        let captured = String(decoding: resources.newsAPIMaximumResults, as: UTF8.self)
        let body = captured.replacingOccurrences(
            of: "results 100 to 120", with: "results \((page - 1) * pageSize) to \(page * pageSize)")
        return .json(Array(body.utf8), status: .upgradeRequired)
    }

    private func bearerToken(_ headers: HTTPFields) -> String? {
        guard let authorization = HTTPHeader.value("authorization", in: headers) else { return nil }
        return authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst("Bearer ".count)) : authorization
    }

    /// A NewsAPI error body: `{"status":"error","code":...,"message":...}`.
    private func error(_ status: HTTPResponse.Status, code: String, message: String) -> DemoReply {
        let body = JSONText.object(
            ["status": JSONText.string("error"), "code": JSONText.string(code), "message": JSONText.string(message)])
        return .json(Array(body.utf8), status: status)
    }

    /// NewsAPI's own 500 body.
    static let unexpectedError =
        #"{"status":"error","code":"unexpectedError","message":"This shouldn't happen, and if it does then it's our fault, not yours. Try the request again shortly."}"#
}
