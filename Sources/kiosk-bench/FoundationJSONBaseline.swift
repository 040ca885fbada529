import Foundation

/// The Foundation pass Kiosk's JSON Feed parser is measured against: `JSONSerialization` building
/// its untyped object tree, which is about the work of any Foundation-based JSON Feed reader
/// before it maps the tree to a model.
enum FoundationJSONBaseline {
    /// Why a pass failed: the document is not JSON, or not a JSON object.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `data` once.
    /// - Returns: the number of elements of the top-level `items` array (0 if there is none),
    ///   compared with Kiosk's entry count.
    static func run(_ data: Data) throws(Failure) -> Int {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Failure(description: (error as NSError).localizedDescription)
        }
        guard let feed = object as? [String: Any] else {
            throw Failure(description: "top level is not a JSON object")
        }
        return (feed["items"] as? [Any])?.count ?? 0
    }
}
