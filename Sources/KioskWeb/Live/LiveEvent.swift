import Foundation
import KioskStore

/// An event a page hears, typed: its name on the wire and its JSON are written here once
/// (Assets/app.js reads them).
enum LiveEvent: Sendable {
    /// A source's check started or ended (the activity indicator).
    case activity(ActivityMessage)
    /// A source's entries changed: the rows of its list that differ.
    case changed(ChangedMessage)
    /// A source could not be read; its last good entries stay.
    case failed(FailedMessage)
    /// The user opened a headline (Home, in every tab).
    case opened(OpenedMessage)
    /// The user changed their reader: read, starred, subscriptions.
    case reader(ReaderMessage)
    /// Everything, for a page that missed events.
    case resync(ResyncMessage)

    /// The SSE `event:` names, each one the page's script listens for.
    enum Name: String, CaseIterable, Sendable {
        case activity, changed, failed, opened, reader, resync
    }

    var name: Name {
        switch self {
        case .activity: .activity
        case .changed: .changed
        case .failed: .failed
        case .opened: .opened
        case .reader: .reader
        case .resync: .resync
        }
    }

    /// The SSE `data:` line.
    var json: String {
        switch self {
        case .activity(let message): LiveJSON.encode(message)
        case .changed(let message): LiveJSON.encode(message)
        case .failed(let message): LiveJSON.encode(message)
        case .opened(let message): LiveJSON.encode(message)
        case .reader(let message): LiveJSON.encode(message)
        case .resync(let message): LiveJSON.encode(message)
        }
    }

    /// A user's event as replicas pass it through the shared log (`name`, `json`), read back:
    /// only `opened` and `reader` travel that way; anything else (or unreadable) is nil.
    init?(shared name: String, json: String) {
        let data = Data(json.utf8)
        switch Name(rawValue: name) {
        case .opened:
            guard let message = try? JSONDecoder().decode(OpenedMessage.self, from: data) else { return nil }
            self = .opened(message)
        case .reader:
            guard let message = try? JSONDecoder().decode(ReaderMessage.self, from: data) else { return nil }
            self = .reader(message)
        default:
            return nil
        }
    }
}
