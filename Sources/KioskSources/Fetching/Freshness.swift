import Foundation
import KioskCore

/// Reads how long an answer says it stays fresh from its `Cache-Control` and `Expires` headers,
/// so the engine can poll a feed no more often than it asks (RFC 9111, § 4.2.1).
enum Freshness {
    /// Longest freshness reported; a hostile or broken server must not park a feed for years.
    static let longest: Duration = .seconds(24 * 60 * 60)

    /// The answer's freshness lifetime, clamped to `0...longest`; nil when it gives none.
    ///
    /// `s-maxage` wins over `max-age`, which wins over `Expires`: Kiosk reads for every page it
    /// serves, as a shared cache does. `no-store` and `no-cache` mean no hint at all, whatever else
    /// the answer says; a directive whose value is not delta-seconds is ignored. `Expires` counts from the answer's own `Date` when it has a readable one
    /// (so a server's clock that is off does not matter), else from `now`.
    static func parse(cacheControl: String?, expires: String?, date: String?, now: Date = Date()) -> Duration? {
        var maxAge: Duration?
        var sharedMaxAge: Duration?
        for directive in directives(cacheControl ?? "") {
            switch directive.name {
            // `no-cache="Set-Cookie"` only concerns the fields it names, not the answer.
            case "no-store": return nil
            case "no-cache" where directive.value == nil: return nil
            case "max-age": maxAge = directive.value.flatMap(seconds) ?? maxAge
            case "s-maxage": sharedMaxAge = directive.value.flatMap(seconds) ?? sharedMaxAge
            default: continue
            }
        }
        if let age = sharedMaxAge ?? maxAge { return age }
        guard let expires, let expiry = DateParser.parse(expires.trimmingCharacters(in: .whitespaces)) else {
            return nil
        }
        let origin = date.flatMap { DateParser.parse($0.trimmingCharacters(in: .whitespaces)) } ?? now
        let lifetime = expiry.timeIntervalSince(origin)
        guard lifetime.isFinite else { return nil }
        // An expiry in the past is "stale now"; fractions come from the clock, so round up.
        return .seconds(Int(min(max(lifetime.rounded(.up), 0), 24 * 60 * 60)))
    }

    /// The header's directives, names lowercased, values unquoted. Commas inside a quoted value
    /// (`private="Set-Cookie, Foo"`) do not split it.
    private static func directives(_ header: String) -> [(name: String, value: String?)] {
        var parts: [Substring] = []
        var start = header.startIndex
        var quoted = false
        for index in header.indices {
            switch header[index] {
            case "\"": quoted.toggle()
            case "," where !quoted:
                parts.append(header[start..<index])
                start = header.index(after: index)
            default: continue
            }
        }
        parts.append(header[start...])
        return parts.compactMap { part in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { return nil }
            let value = pair.count == 2
                ? pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                : nil
            return (name, value)
        }
    }

    /// Delta-seconds (digits only), clamped to `longest`; nil when the value is anything else.
    private static func seconds(_ value: String) -> Duration? {
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        // Too many digits for Int is simply "very long".
        guard let seconds = Int(value) else { return longest }
        return min(.seconds(seconds), longest)
    }
}
