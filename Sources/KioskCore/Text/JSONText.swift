/// JSON written by hand where key order or speed matters: NewsAPI bodies read like the captured
/// ones (`status`, `totalResults`, `articles`, ...), which `JSONEncoder` does not promise on
/// Linux, and the sync API's streams are written without an encoder.
public enum JSONText {
    /// `"text"` with RFC 8259's escapes (quotes, backslashes and control characters), everything
    /// else as it is (UTF-8); `null` for nil.
    public static func string(_ text: String?) -> String {
        guard let text else { return "null" }
        var output = "\""
        output.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// `{"key":value,...}` from already-written values, in the order given.
    public static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { string($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }
}
