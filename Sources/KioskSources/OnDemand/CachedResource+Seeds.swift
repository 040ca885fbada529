import Foundation
import KioskCore

extension CachedResource where Value == FactSheet {
    /// The Facts screen's feed, read with KioskCore's facts parser.
    public static func facts(url: URL?, fetcher: any Fetching) -> CachedResource<FactSheet> {
        CachedResource(name: "Facts", url: url, fetcher: fetcher) { body in try FactsParser.parse(Data(body.bytes)) }
    }
}

extension CachedResource where Value == AlbumChart {
    /// The Top Albums chart (Apple's v2 feed, v1 accepted).
    public static func albums(url: URL?, fetcher: any Fetching) -> CachedResource<AlbumChart> {
        CachedResource(name: "Top Albums", url: url, fetcher: fetcher) { body in
            try AlbumFeedParser.parse(Data(body.bytes))
        }
    }
}
