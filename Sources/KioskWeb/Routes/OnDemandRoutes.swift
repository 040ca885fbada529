import Foundation
import Hummingbird
import KioskCore
import KioskSources

/// The screens read on request: Facts, Jokes and Top Albums.
struct OnDemandRoutes: Sendable {
    let shared: RouteContext

    func register(on router: Router<KioskRequestContext>) {
        let dependencies = shared.dependencies
        router.get("facts") { request, _ in
            // A cached sheet shows at once; the refresh button asks for a fresh one.
            let refresh = request.uri.queryParameters.get("refresh") != nil
            var sheet = await dependencies.facts.cached
            var error: SourceError?
            if refresh || sheet == nil {
                let loaded = await dependencies.facts.load()
                sheet = loaded.value
                error = loaded.error
            }
            return FactsPage(sheet: sheet, error: error, images: dependencies.signer).page.response
        }
        router.get("jokes") { _, _ in JokesPage().page.response }
        router.post("jokes/next") { _, context in
            switch await dependencies.jokes.joke(for: context.clientID) {
            case .success(let joke): return try JSONResponse(JokeAnswer(joke: joke.content, error: nil)).response
            case .failure(let error):
                let message = "No joke this time: \(error.description)"
                return try JSONResponse(JokeAnswer(joke: nil, error: message), status: .badGateway).response
            }
        }
        let albumRows = RenderCache<AlbumChart?>()
        router.get("albums") { request, _ in
            let (chart, error) = await albums(refresh: request.uri.queryParameters.get("refresh") != nil)
            let signer = dependencies.signer
            let rows = await albumRows.html(for: chart) { AlbumsPage.rows($0, images: signer) }
            return AlbumsPage(rows: rows, error: error).page.response
        }
        router.get("albums/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            let (chart, _) = await albums(refresh: false)
            guard let album = chart?.albums.first(where: { $0.id == id }) else { throw HTTPError(.notFound) }
            return AlbumDetailPage(album: album, images: dependencies.signer).page.response
        }
    }

    private func albums(refresh: Bool) async -> (AlbumChart?, SourceError?) {
        if !refresh, let cached = await shared.dependencies.albums.cached { return (cached, nil) }
        let loaded = await shared.dependencies.albums.load()
        return (loaded.value, loaded.error)
    }
}

/// What `POST /jokes/next` answers.
struct JokeAnswer: Encodable, Sendable {
    var joke: String?
    var error: String?
}
