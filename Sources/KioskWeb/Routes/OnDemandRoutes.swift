import Foundation
import Hummingbird
import KioskCore
import KioskSources

/// The screens read on request: Facts, Jokes and Top Albums.
struct OnDemandRoutes: Sendable {
    let facts: CachedResource<FactSheet>
    let albums: CachedResource<AlbumChart>
    let jokes: JokeService
    let signer: ImageSigner

    func register(on router: Router<KioskRequestContext>) {
        router.get("facts") { request, context in
            // A cached sheet shows at once, also while a refresh (the button) goes on; `?landed`
            // is that refresh's outcome, when it lands.
            let facts = await Self.load(facts, request)
            return FactsPage(sheet: facts.value, error: facts.error, images: signer, refreshing: facts.refreshing)
                .page.response(for: context)
        }
        router.get("jokes") { _, context in JokesPage().page.response(for: context) }
        router.post("jokes/next") { _, context in
            switch await jokes.joke(for: context.clientID) {
            case .success(let joke): return try JSONResponse(JokeAnswer(joke: joke.content, error: nil)).response
            case .failure(let error):
                let message = "No joke this time: \(error.description)"
                return try JSONResponse(JokeAnswer(joke: nil, error: message), status: .badGateway).response
            }
        }
        let albumRows = RenderCache<AlbumChart?>()
        router.get("albums") { request, context in
            let albums = await Self.load(albums, request)
            let signer = signer
            let rows = await albumRows.html(for: albums.value) { AlbumsPage.rows($0, images: signer) }
            return AlbumsPage(rows: rows, error: albums.error, refreshing: albums.refreshing).page.response(for: context)
        }
        router.get("albums/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            let chart = await albums.current(refresh: false).value
            guard let album = chart?.albums.first(where: { $0.id == id }) else { throw HTTPError(.notFound) }
            return AlbumDetailPage(album: album, images: signer).page.response(for: context)
        }
    }

    /// `?refresh` (the refresh button, pull-to-refresh): the cached value at once while the source
    /// is asked; `?landed`: the outcome of that refresh; else the cached value.
    private static func load<Value>(_ resource: CachedResource<Value>, _ request: Request) async -> Loaded<Value> {
        let query = request.uri.queryParameters
        if query.get("landed") != nil { return await resource.settled() }
        return await resource.current(refresh: query.get("refresh") != nil)
    }
}

/// What `POST /jokes/next` answers.
struct JokeAnswer: Encodable, Sendable {
    var joke: String?
    var error: String?
}
