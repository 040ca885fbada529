import Foundation
import KioskCore
import KioskModel
import KioskSources

/// `/albums`: the top 100 albums, thumbnails loading as they scroll into view.
struct AlbumsPage: Sendable {
    var rows: RenderedHTML
    var error: SourceError?
    /// A refresh goes on behind what is shown.
    var refreshing = false

    var page: Page {
        Page(
            title: "Top Albums", kind: "albums", tab: .albums,
            content: [
                ScreenHeader(title: "Top Albums").node,
                ErrorBanner(id: "api-error", message: error.map { "Top Albums could not be refreshed: \($0.description)" }).node,
                RefreshStatus(refreshing: refreshing).node,
                el("ol", .id("albums"), .class("albums")) { Node.rendered(rows) },
            ])
    }

    /// The chart's rows (rendered once per chart: see ``RenderCache``).
    static func rows(_ chart: AlbumChart?, images: ImageSigner) -> RenderedHTML {
        RenderedHTML(
            (chart?.albums ?? []).enumerated().map { rank, album in
                el("li", .class("album")) {
                    el("a", .class("album-link"), .href("/albums/\(AlbumPath.segment(album.id))")) {
                        el("span", .class("album-rank"), .aria("hidden", "true")) { String(rank + 1) }
                        if let image = images.path(for: album.artworkURL(size: 100)) {
                            LazyImage(src: image, className: "album-thumb", width: 56, height: 56).node
                        } else {
                            el("span", .class("album-thumb placeholder"), .aria("hidden", "true"))
                        }
                        el("span", .class("album-text")) {
                            el("span", .class("album-name")) { album.name }
                            el("span", .class("album-artist")) { album.artistName ?? "Unknown artist" }
                        }
                    }
                }
            })
    }
}

/// `/albums/<id>`: large artwork, the album's facts, and a button to Apple Music pinned 20 px
/// from the bottom and the content's edges.
struct AlbumDetailPage: Sendable {
    var album: Album
    var images: ImageSigner

    var page: Page {
        Page(
            title: album.name, kind: "album-detail", tab: .albums, hidesTabBarOnPhones: true,
            content: nodes {
                BackLink(href: "/albums", label: "Top Albums").node
                el("article", .class("album-detail")) {
                    if let image = images.path(for: album.artworkURL(size: 600)) {
                        void("img", .id("album-artwork"), .class("album-artwork"), .src(image), .alt("Artwork of \(album.name)"),
                            Attribute("width", "600"), Attribute("height", "600"))
                    }
                    el("h1", .id("album-name")) { album.name }
                    el("p", .id("album-artist"), .class("album-artist-large")) { album.artistName ?? "Unknown artist" }
                    el("dl", .class("facts-list")) {
                        el("dt") { "Genre" }
                        el("dd", .id("album-genres")) { album.genres.isEmpty ? "—" : album.genres.joined(separator: ", ") }
                        el("dt") { "Released" }
                        el("dd", .id("album-release")) {
                            if let date = album.releaseDate { DateText.node(date, style: .date) } else { "—" }
                        }
                        el("dt") { "Copyright" }
                        el("dd", .id("album-copyright")) { album.copyright ?? "—" }
                    }
                }
                if let link = SafeLink.http(album.url) {
                    el("a", .id("apple-music"), .class("button primary apple-music"), .href(link), .rel("noopener noreferrer"),
                        Attribute("target", "_blank")) { "Open in Apple Music" }
                }
            })
    }
}

/// Album ids in paths: the chart's ids are digits, but they come from a source, so anything
/// else is percent-encoded.
enum AlbumPath {
    static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
