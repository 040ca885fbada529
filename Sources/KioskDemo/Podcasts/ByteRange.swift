/// One range of a `Range: bytes=...` header (RFC 9110 §14.1.2) over a body of known length: the
/// first bytes (`0-99`), from an offset (`100-`) or the last bytes (`-100`). A media element seeks
/// with these; several ranges in one header are answered whole, as servers may.
struct ByteRange: Equatable {
    var lower: Int
    /// Inclusive, as the header writes it.
    var upper: Int

    enum Reading: Equatable {
        /// No header, or one this server answers with the whole body.
        case whole
        case range(ByteRange)
        /// A range wholly past the end: 416.
        case unsatisfiable
    }

    static func read(_ header: String?, length: Int) -> Reading {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.lowercased().hasPrefix("bytes="),
            length > 0
        else { return .whole }
        let spec = header.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        // Digits only (`1*DIGIT`): no signs, no spaces inside.
        let isNumber = { (text: String) in text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && text.utf8.count <= 18 }
        guard isNumber(first), isNumber(last) else { return .whole }
        switch (Int(first), Int(last)) {
        case (nil, let suffix?) where first.isEmpty:
            guard suffix > 0 else { return .unsatisfiable }
            return .range(ByteRange(lower: max(0, length - suffix), upper: length - 1))
        case (let lower?, nil) where last.isEmpty:
            guard lower >= 0 else { return .whole }
            return lower < length ? .range(ByteRange(lower: lower, upper: length - 1)) : .unsatisfiable
        case (let lower?, let upper?):
            guard lower >= 0, upper >= lower else { return .whole }
            return lower < length ? .range(ByteRange(lower: lower, upper: min(upper, length - 1))) : .unsatisfiable
        default:
            return .whole
        }
    }
}
