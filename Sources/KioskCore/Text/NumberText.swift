/// Numbers written for people, the same on every machine (no locale: Kiosk's sentences are
/// English).
public enum NumberText {
    /// `10000` as `10,000`.
    public static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var out = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
