import Foundation
import Hummingbird
import KioskCore

/// Answers every request of the demo server: counts it, applies the source's latency and fault,
/// and serves the source's payload.
struct DemoResponder: HTTPResponder {
    typealias Context = DemoRequestContext

    let configuration: DemoConfiguration
    let control: DemoControl
    let address: ServerAddress
    let resources: DemoResources
    let feeds: FeedStore
    let bound: BoundPayloads
    let jokes: JokeEndpoint
    let images: ImageEndpoint
    let controlEndpoint: ControlEndpoint
    let push = DemoPushService()
    let podcasts: DemoPodcasts

    init(configuration: DemoConfiguration, control: DemoControl, address: ServerAddress, resources: DemoResources, start: Date)
        throws(DemoError)
    {
        self.configuration = configuration
        self.control = control
        self.address = address
        self.resources = resources
        feeds = try FeedStore(feeds: resources.feeds, evolveEvery: configuration.evolveEvery, start: start)
        bound = BoundPayloads(
            address: address, chart: try AlbumChartTemplate(json: resources.albums),
            captured: try NewsCatalogue.captured(from: resources.topHeadlines), facts: resources.facts)
        jokes = JokeEndpoint(teller: JokeTeller(), resources: resources)
        images = ImageEndpoint(cache: ImageCache())
        controlEndpoint = ControlEndpoint(control: control)
        podcasts = try DemoPodcasts.load()
    }

    func respond(to request: Request, context: DemoRequestContext) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/_demo/") {
            return FaultInjector.plain(await controlEndpoint.respond(to: request, channel: context.channel))
        }
        if let article = DemoArticlePath(path: path) { return FaultInjector.plain(await articlePage(article)) }
        if path.hasPrefix(SitePages.prefix) { return FaultInjector.plain(SitePages.reply(for: path) ?? .notFound) }
        if path.hasPrefix(DemoPodcasts.prefix) {
            let base = await address.wait().absoluteString.trimmingSuffix("/")
            let response = FaultInjector.plain(podcasts.reply(path: path, headers: request.headers, base: base))
            return request.method == .head ? response.createHeadResponse() : response
        }
        if path.hasPrefix(DemoPushService.prefix) {
            return FaultInjector.plain(await push.respond(to: request, base: await address.wait()))
        }
        guard let source = DemoSource(path: path) else { return FaultInjector.plain(.notFound) }
        guard request.method == .get || request.method == .head else {
            return FaultInjector.plain(.text("Method Not Allowed\n", status: .methodNotAllowed))
        }

        await control.recordRequest(source: source, path: path)
        let fault = await control.fault(for: source)
        if fault == .neverAnswer {
            // Ends when the client hangs up (inbound closed) or the server stops.
            try await request.body.consumeWithCancellationOnInboundClose { _ in try await DemoPause.forever() }
        }
        try await DemoPause.sleep(for: await control.latencyOverride(for: source) ?? configuration.latency(for: source))

        // A misbehaving source ignores validators: it has no good answer to compare with.
        let reply = await answer(source, request: request, conditional: fault == .none)
        var location = ""
        if fault == .redirectLoop || fault == .tlsDowngrade {
            location = FaultInjector.redirectLocation(for: fault, base: await address.wait(), target: request.uri.string) ?? ""
        }
        let response = FaultInjector.response(
            for: reply, fault: fault, serverError: serverError(for: source), location: location, channel: context.channel)
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The normal answer of `source` to `request`.
    private func answer(_ source: DemoSource, request: Request, conditional: Bool) async -> DemoReply {
        switch source {
        case .business, .entertainment, .environment:
            return await feed(source, headers: request.headers, conditional: conditional)
        case .facts:
            return DemoReply(contentType: "application/json", body: await bound.factsFeed())
        case .albums:
            return .json(await bound.albumChart())
        case .newsAPI:
            let endpoint = NewsAPIEndpoint(catalogue: await bound.news(), key: configuration.newsAPIKey, resources: resources)
            let name = request.uri.path.dropFirst(DemoSource.newsAPI.path.count)
            return endpoint.respond(endpoint: name, query: QueryItems(request.uri.query), headers: request.headers)
        case .jokes:
            return await jokes.respond(headers: request.headers)
        case .images:
            let segments = request.uri.path.dropFirst(DemoSource.images.path.count).split(separator: "/")
            return await images.respond(segments: segments)
        case .samples:
            return SampleFeeds.reply(path: request.uri.path, headers: request.headers, conditional: conditional)
        case .kinds:
            return kindSample(path: request.uri.path, headers: request.headers, conditional: conditional)
        }
    }

    /// A kind of source's demo sample: the same bytes every time, so a client holding them gets a 304.
    private func kindSample(path: String, headers requestHeaders: HTTPFields, conditional: Bool) -> DemoReply {
        let id = SourceKind.ID(rawValue: String(path.dropFirst(DemoSource.kinds.path.count)))
        guard let sample = configuration.kinds[id]?.demo else { return .notFound }
        let body = sample.body()
        let etag = "\"kind-\(String(StableHash.fnv1a64(String(decoding: body, as: UTF8.self)), radix: 16))\""
        return ConditionalRequest.reply(
            to: requestHeaders, conditional: conditional, etag: etag, lastModified: Date(timeIntervalSince1970: 1_700_000_000),
            contentType: sample.contentType, body: { body })
    }

    /// The current edition of an RSS feed, or 304 when the client already holds it.
    private func feed(_ source: DemoSource, headers requestHeaders: HTTPFields, conditional: Bool) async -> DemoReply {
        let manual = await control.manualEntryDates(for: source)
        let base = await address.wait()
        guard let edition = await feeds.edition(of: source, manual: manual, now: Date(), base: base) else { return .notFound }
        return ConditionalRequest.reply(
            to: requestHeaders, conditional: conditional, etag: edition.etag, lastModified: edition.lastModified,
            contentType: "application/rss+xml; charset=utf-8", body: { edition.body })
    }

    /// The article page behind a sample feed's item, or 404 when no item stands behind it.
    private func articlePage(_ path: DemoArticlePath) async -> DemoReply {
        guard let item = await feeds.item(at: path) else { return .notFound }
        return DemoArticle.page(item: item, path: path, related: await feeds.related(to: path, count: 4))
    }

    /// What `serverError` answers: the API's own 500 shape where it has one.
    private func serverError(for source: DemoSource) -> DemoReply {
        switch source {
        case .newsAPI: .json(Array(NewsAPIEndpoint.unexpectedError.utf8), status: .internalServerError)
        case .jokes: .json(resources.jokeServerError, status: .internalServerError)
        default: .text("Internal Server Error\n", status: .internalServerError)
        }
    }
}
