/// The Google Reader API's item ids. Kiosk's are the store's entry numbers; clients send them
/// three ways and all are accepted: long (`tag:google.com,2005:reader/item/` and hex, padded to
/// 16 digits or not), short hex (16 digits), and decimal (what `stream/items/ids` returns).
enum ItemID {
    static let longPrefix = "tag:google.com,2005:reader/item/"

    /// The long form, 16 lowercase hex digits: what contents and Atom answers carry.
    static func long(_ id: Int64) -> String {
        let hex = String(UInt64(bitPattern: id), radix: 16)
        return longPrefix + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// The decimal form `stream/items/ids` returns (NetNewsWire needs it decimal).
    static func decimal(_ id: Int64) -> String { String(id) }

    /// An id in any of the three forms; nil for anything else (or out of range).
    static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix(longPrefix) {
            return hex(String(trimmed.dropFirst(longPrefix.count)))
        }
        if trimmed.count == 16, let value = hex(trimmed) { return value }
        guard !trimmed.isEmpty, trimmed.count <= 19, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber),
            let value = Int64(trimmed), value > 0
        else { return nil }
        return value
    }

    private static func hex(_ digits: String) -> Int64? {
        guard (1...16).contains(digits.count), let value = UInt64(digits, radix: 16), value > 0,
            value <= UInt64(Int64.max)
        else { return nil }
        return Int64(value)
    }
}
