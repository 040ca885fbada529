/// A non-negative number read one digit at a time from untrusted text.
///
/// Feeds write numbers of any length (`&#x100000000;`, a 40-digit year, a width of a billion
/// pixels). Plain `value * 10 + digit` traps on overflow and takes the whole process with it, so
/// every digit run read from a source goes through here instead: the value stops at `ceiling`
/// (a caller picks one just past the largest value it accepts) and the digits are still counted,
/// so callers consume the whole run and can tell "too long" from "just right".
package struct BoundedNumber: Sendable, Hashable {
    let radix: Int
    let ceiling: Int
    /// The digits' value, or `ceiling` once it would pass it.
    package private(set) var value = 0
    /// How many digits were appended, saturated or not.
    private(set) var digitCount = 0

    package init(radix: Int = 10, ceiling: Int = .max) {
        self.radix = radix
        self.ceiling = ceiling
    }

    /// True once the digits' value reached `ceiling`: the exact number is lost.
    var isSaturated: Bool { value >= ceiling }

    package mutating func append(_ digit: Int) {
        digitCount += 1
        guard value < ceiling else { return }
        let (product, productOverflow) = value.multipliedReportingOverflow(by: radix)
        let (sum, sumOverflow) = product.addingReportingOverflow(digit)
        value = productOverflow || sumOverflow ? ceiling : min(sum, ceiling)
    }

    /// The value of an ASCII digit in `radix` (up to 16), or nil when the byte is none.
    package static func digitValue(_ byte: UInt8, radix: Int = 10) -> Int? {
        if byte >= 0x30, byte <= 0x39 { return Int(byte &- 0x30) }
        guard radix == 16 else { return nil }
        let lower = byte | 0x20
        return lower >= 0x61 && lower <= 0x66 ? Int(lower &- 0x61) + 10 : nil
    }
}
