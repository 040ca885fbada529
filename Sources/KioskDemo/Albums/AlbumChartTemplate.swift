import Foundation

/// The captured Apple v2 chart, cut around each `artworkUrl100` value so it can be rendered with
/// artwork on this server while every other byte stays as captured.
struct AlbumChartTemplate: Sendable {
    /// Text up to and including the opening quote of an artwork URL, and the album it belongs to.
    private let pieces: [(text: Substring, albumID: String)]
    /// Text from the closing quote of the last artwork URL to the end.
    private let tail: Substring

    init(json: String) throws(DemoError) {
        var pieces: [(text: Substring, albumID: String)] = []
        var cursor = json.startIndex
        for id in try Self.albumIDs(json) {
            guard let key = json.range(of: "\"artworkUrl100\"", range: cursor..<json.endIndex),
                let open = json.range(of: "\"", range: key.upperBound..<json.endIndex),
                let close = Self.closingQuote(in: json, after: open.upperBound)
            else { throw .malformedResource("apple_v2_albums.json") }
            pieces.append((json[cursor..<open.upperBound], id))
            cursor = close
        }
        self.pieces = pieces
        tail = json[cursor...]
    }

    /// The chart with each artwork URL replaced by `<base>/images/artwork/<albumId>/100x100bb.png`
    /// (the `100x100bb` segment kept, so clients can ask for larger sizes by swapping it).
    func render(base: String) -> String {
        var output = ""
        for piece in pieces {
            output += piece.text
            output += "\(base)/images/artwork/\(piece.albumID)/100x100bb.png"
        }
        output += tail
        return output
    }

    /// Album ids in document order, for results that have an artwork URL.
    private static func albumIDs(_ json: String) throws(DemoError) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)),
            let root = object as? [String: Any], let feed = root["feed"] as? [String: Any],
            let results = feed["results"] as? [[String: Any]]
        else { throw .malformedResource("apple_v2_albums.json") }
        return results.enumerated().compactMap { index, result in
            guard result["artworkUrl100"] is String else { return nil }
            return (result["id"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "album-\(index)"
        }
    }

    /// The index of the quote ending the JSON string whose content starts at `start`.
    private static func closingQuote(in json: String, after start: String.Index) -> String.Index? {
        var index = start
        var escaped = false
        while index < json.endIndex {
            let character = json[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return index
            }
            index = json.index(after: index)
        }
        return nil
    }
}
