import Foundation
import KioskCore
import KioskModel
import KioskSources

extension SourceCatalogue {
    /// The seed apps' sources as the embedded sample-sources server at `base` serves them: each
    /// at its `DemoSource.path`, the one place the demo's URL layout is written. Each of `kinds`
    /// that has a demo sample adds a source of that kind (`demo-<kind>`, checked every minute).
    public static func demo(base: URL, newsAPIKey: String = "demo", kinds: SourceKinds = .builtIn) -> SourceCatalogue {
        func at(_ source: DemoSource) -> URL {
            base.appendingPathComponent(source.path.trimmingCharacters(in: CharacterSet(charactersIn: "/")))
        }
        let samples = kinds.all.filter { $0.demo != nil }.map { kind in
            PolledSource(
                id: SourceID("demo-\(kind.id)"), name: kind.name, url: at(.kinds).appendingPathComponent(kind.id.rawValue),
                interval: .seconds(60), kind: kind.id)
        }
        var catalogue = SourceCatalogue(
            feeds: [
                PolledSource(id: .business, name: "Business", url: at(.business)),
                PolledSource(id: .entertainment, name: "Entertainment", url: at(.entertainment)),
                PolledSource(id: .environment, name: "Environment", url: at(.environment)),
            ] + samples,
            merged: [entertainmentAndEnvironment], news: seedNews,
            factsURL: at(.facts),
            albumsURL: at(.albums),
            newsAPI: NewsAPISettings(baseURL: at(.newsAPI), apiKey: newsAPIKey),
            jokesURL: at(.jokes))
        catalogue.demoPushURL = base.appendingPathComponent(
            DemoPushService.prefix.trimmingCharacters(in: CharacterSet(charactersIn: "/")))
        return catalogue
    }
}
