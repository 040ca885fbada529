import Foundation
import KioskModel
import KioskSources

/// The reader's addresses, in one place so every link Kiosk prints resolves.
enum ReaderLinks {
    static let home = "/reader"
    static let all = "/reader/all"
    static let starred = "/reader/starred"
    static let hidden = "/reader/hidden"
    /// Episodes in progress and unplayed.
    static let listen = "/reader/listen"
    static let setHidden = "/reader/hide"
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
    static func label(_ name: String) -> String { "/reader/label/\(component(name))" }
    static let setLabel = "/reader/label"
    static let notifications = "/reader/notifications"
    static let webhooks = "/reader/notifications/webhooks"
    static let demoDevice = "/reader/notifications/demo-device"
    /// A device's one-button actions: `test`, `delete`.
    static func notificationDevice(_ id: Int64, _ action: String) -> String { "/reader/notifications/devices/\(id)/\(action)" }
    static let rules = "/reader/rules"
    static let newRule = "/reader/rules/new"
    static let rulePreview = "/reader/rules/preview"
    static let rulesFile = "/reader/rules.json"
    static let importRules = "/reader/rules/import"
    static func editRule(_ id: Int64) -> String { "/reader/rules/\(id)/edit" }
    static func applyRule(_ id: Int64) -> String { "/reader/rules/\(id)/apply" }
    static func undoRule(_ id: Int64) -> String { "/reader/rules/\(id)/undo" }
    /// A rule's one-button actions: `pause`, `move`, `delete`.
    static func rule(_ id: Int64, _ action: String) -> String { "/reader/rules/\(id)/\(action)" }
    static func entry(_ source: SourceID, key: String) -> String {
        "/reader/entry/\(component(source.rawValue))/\(component(key))"
    }
    /// Where an episode's player keeps the user's place.
    static func position(_ source: SourceID, key: String) -> String { entry(source, key: key) + "/position" }

    /// A path segment: everything but unreserved characters percent-encoded (a folder may be
    /// called "Tech / Swift").
    static func component(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
