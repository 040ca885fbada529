import Foundation

/// The headline a user opened last: enough to show it and to go back to it after a restart.
public struct OpenedHeadline: Sendable, Hashable, Codable {
    public var title: String
    /// The app's path of the opened entry (its page in the web app).
    public var path: String
    public var openedAt: Date

    public init(title: String, path: String, openedAt: Date) {
        self.title = title
        self.path = path
        self.openedAt = openedAt
    }
}

extension OpenedHeadline {
    /// The text a store keeps (every store the same).
    package func storedJSON() throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
        } catch {
            throw .other("the headline cannot be encoded: \(error)")
        }
    }

    /// The headline a store kept as `json`; `location` names the database in the error.
    package init(storedJSON json: String, location: String) throws(StoreError) {
        do {
            self = try JSONDecoder().decode(OpenedHeadline.self, from: Data(json.utf8))
        } catch {
            throw .corrupt(path: location, reason: "the last opened headline cannot be read: \(error)")
        }
    }
}
