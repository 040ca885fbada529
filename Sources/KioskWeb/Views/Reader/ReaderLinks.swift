import Foundation
import KioskModel
import KioskSources

/// The reader's addresses, in one place so every link Kiosk prints resolves.
enum ReaderLinks {
    static let home = "/reader"
    static let all = "/reader/all"
    static let starred = "/reader/starred"
    static let add = "/reader/add"
    static let opml = "/reader/opml"
    static let export = "/feeds.opml"

    static func feed(_ id: SourceID) -> String { "/reader/feed/\(component(id.rawValue))" }
    static func settings(_ id: SourceID) -> String { "/reader/feed/\(component(id.rawValue))/settings" }
    static func unsubscribe(_ id: SourceID) -> String { "/reader/feed/\(component(id.rawValue))/unsubscribe" }
    static func folder(_ name: String) -> String { "/reader/folder/\(component(name))" }
    static let searches = "/reader/searches"
    static func search(_ id: Int64) -> String { "/reader/search/\(id)" }
    static func deleteSearch(_ id: Int64) -> String { "/reader/search/\(id)/delete" }
    static func entry(_ source: SourceID, key: String) -> String {
        "/reader/entry/\(component(source.rawValue))/\(component(key))"
    }

    /// A path segment: everything but unreserved characters percent-encoded (a folder may be
    /// called "Tech / Swift").
    static func component(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
