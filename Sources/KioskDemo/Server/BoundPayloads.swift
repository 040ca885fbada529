/// The payloads that name this server's own URL (album artwork, news and facts images), built once the
/// server is bound and its port known.
actor BoundPayloads {
    private let address: ServerAddress
    private let chart: AlbumChartTemplate
    private let captured: [NewsArticle]
    private let capturedFacts: [UInt8]
    private var albums: [UInt8]?
    private var facts: [UInt8]?
    private var catalogue: NewsCatalogue?

    init(address: ServerAddress, chart: AlbumChartTemplate, captured: [NewsArticle], facts: [UInt8]) {
        self.address = address
        self.capturedFacts = facts
        self.chart = chart
        self.captured = captured
    }

    /// The Apple v2 chart with artwork on this server.
    func albumChart() async -> [UInt8] {
        if let albums { return albums }
        let rendered = Array(chart.render(base: await base()).utf8)
        albums = rendered
        return rendered
    }

    /// The facts feed with its images on this server (one left broken on purpose).
    func factsFeed() async -> [UInt8] {
        if let facts { return facts }
        let rendered = FactsImages.render(capturedFacts, base: await base())
        facts = rendered
        return rendered
    }

    /// The NewsAPI catalogue with images on this server.
    func news() async -> NewsCatalogue {
        if let catalogue { return catalogue }
        let built = NewsCatalogue(captured: captured, base: await base())
        catalogue = built
        return built
    }

    /// `http://127.0.0.1:54321`, no trailing slash.
    private func base() async -> String {
        let url = await address.wait().absoluteString
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
