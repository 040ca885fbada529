import Foundation

/// One setting, everything about it in one entry: its config-file key, its flag and environment
/// variable, how its value is read from each, the bounds it must keep, and the words README's
/// table and `kiosk serve --help` show. ``SettingsSchema`` derives the parsing, the checks, the
/// table and the help from a list of these; ``Settings/schema`` is Kiosk's.
///
/// `Root` is the type holding the values (``Settings``); its stored properties hold the defaults.
public struct SettingSpec<Root: Sendable>: Sendable {
    /// The config file's key, also the property's name.
    public let key: String
    /// The command-line flag without its dashes (`lease-seconds`), if there is one.
    public let flag: String?
    /// The environment variable, if there is one.
    public let environment: String?
    /// What it does, for the table and the help.
    public let meaning: String
    /// Whether the flag takes a value; a Boolean's does not (given, it is true).
    public let flagTakesValue: Bool
    /// The default, in words, read off the defaults.
    let shownDefault: @Sendable (Root) -> String
    /// Stores a value from the config file (its JSON text).
    let readJSON: @Sendable (inout Root, Data) throws -> Void
    /// Stores a value given as text (a flag's or a variable's); false when it cannot be read.
    let readText: @Sendable (inout Root, String) -> Bool
    /// What the text should be, for the message when it cannot be read ("a whole number").
    let expected: String
    /// Keeps the value within its bounds, or refuses it with a sentence naming the setting.
    let check: @Sendable (inout Root) throws(SettingsError) -> Void

    /// How the setting is named in messages: its key, with its flag when it has one.
    public var name: String {
        flag.map { "\(key) (--\($0))" } ?? key
    }
}

/// A value a setting can hold: read from JSON (the config file) or from text (a flag, a variable).
public protocol SettingValue: Codable, Sendable {
    /// The value a flag's or variable's text gives; nil when the text is not one.
    init?(settingText: String)
    /// What such a text is, in words, for the message when it is not one.
    static var expected: String { get }
}

extension String: SettingValue {
    public init?(settingText: String) { self = settingText }
    public static var expected: String { "text" }
}

extension Int: SettingValue {
    public init?(settingText: String) { self.init(settingText.trimmingCharacters(in: .whitespaces)) }
    public static var expected: String { "a whole number" }
}

extension Bool: SettingValue {
    public init?(settingText: String) {
        switch settingText.lowercased() {
        case "true", "yes", "1", "on": self = true
        case "false", "no", "0", "off": self = false
        default: return nil
        }
    }
    public static var expected: String { "true or false" }
}

/// A list given as text is comma-separated: `--x a,b` or `X=a,b`.
extension Array: SettingValue where Element == String {
    public init?(settingText: String) {
        self = settingText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    public static var expected: String { "a comma-separated list" }
}

/// How a whole number is kept within its bounds.
public enum SettingBounds: Sendable {
    /// A value outside is moved to the nearest bound (retention: a mistake keeps working).
    case clamped(ClosedRange<Int>)
    /// A value outside is refused (a port, a lease: the server cannot work with it).
    case refused(ClosedRange<Int>)

    var range: ClosedRange<Int> {
        switch self {
        case .clamped(let range), .refused(let range): range
        }
    }

    /// "(1 to 3650)", as the table and the help say it.
    var words: String { "(\(range.lowerBound) to \(range.upperBound))" }
}

extension SettingSpec {
    /// A setting of any ``SettingValue`` type.
    /// - Parameters:
    ///   - shown: the default in words; nil, the default value itself in backticks.
    ///   - also: a further check on the resolved settings (another setting it must not clash
    ///     with): the sentence to refuse them with, or nil.
    public static func value<Value: SettingValue>(
        _ key: String, _ path: any WritableKeyPath<Root, Value> & Sendable,
        flag: String? = nil, environment: String? = nil, shown: String? = nil,
        _ meaning: String, also: (@Sendable (Root) -> String?)? = nil
    ) -> SettingSpec {
        typed(
            key, flag: flag, environment: environment, meaning: meaning, flagTakesValue: Value.self != Bool.self,
            shownDefault: { root in shown ?? "`\(root[keyPath: path])`" }, also: also,
            decode: { try JSONDecoder().decode(Value.self, from: $0) }, wrap: { (value: Value) in value },
            store: { root, value in root[keyPath: path] = value })
    }

    /// A setting that may be absent (nil: none, or a default decided elsewhere); `null` in the
    /// config file is nil.
    public static func optional<Value: SettingValue>(
        _ key: String, _ path: any WritableKeyPath<Root, Value?> & Sendable,
        flag: String? = nil, environment: String? = nil, shown: String,
        _ meaning: String, also: (@Sendable (Root) -> String?)? = nil
    ) -> SettingSpec {
        typed(
            key, flag: flag, environment: environment, meaning: meaning, flagTakesValue: true,
            shownDefault: { _ in shown }, also: also,
            decode: { try JSONDecoder().decode(Value?.self, from: $0) }, wrap: { (value: Value) -> Value? in value },
            store: { root, value in root[keyPath: path] = value })
    }

    /// The one way a typed setting reads its text (made a `Value`, then `wrap`ped to what the
    /// property holds) and its JSON, and runs its further check.
    private static func typed<Value: SettingValue, Stored>(
        _ key: String, flag: String?, environment: String?, meaning: String, flagTakesValue: Bool,
        shownDefault: @escaping @Sendable (Root) -> String, also: (@Sendable (Root) -> String?)?,
        decode: @escaping @Sendable (Data) throws -> Stored, wrap: @escaping @Sendable (Value) -> Stored,
        store: @escaping @Sendable (inout Root, Stored) -> Void
    ) -> SettingSpec {
        SettingSpec(
            key: key, flag: flag, environment: environment, meaning: meaning, flagTakesValue: flagTakesValue,
            shownDefault: shownDefault,
            readJSON: { root, data in store(&root, try decode(data)) },
            readText: { root, text in
                guard let value = Value(settingText: text) else { return false }
                store(&root, wrap(value))
                return true
            },
            expected: Value.expected,
            check: { root throws(SettingsError) in
                if let also, let refusal = also(root) { throw SettingsError(refusal) }
            })
    }

    /// A whole number kept within `bounds`; the table and the help say the bounds.
    public static func integer(
        _ key: String, _ path: any WritableKeyPath<Root, Int> & Sendable,
        flag: String? = nil, environment: String? = nil, bounds: SettingBounds, _ meaning: String
    ) -> SettingSpec {
        let plain = value(key, path, flag: flag, environment: environment, "\(meaning) \(bounds.words)")
        return plain.checked { root throws(SettingsError) in
            let given = root[keyPath: path]
            guard !bounds.range.contains(given) else { return }
            switch bounds {
            case .clamped(let range): root[keyPath: path] = min(max(given, range.lowerBound), range.upperBound)
            case .refused(let range):
                throw SettingsError(
                    "\(plain.name) must be \(range.lowerBound) to \(range.upperBound), not \(given)")
            }
        }
    }

    /// A whole number that may be absent, refused outside `range` and when `also` says so.
    public static func optionalInteger(
        _ key: String, _ path: any WritableKeyPath<Root, Int?> & Sendable,
        flag: String? = nil, environment: String? = nil, shown: String, range: ClosedRange<Int>,
        _ meaning: String, also: (@Sendable (Root) -> String?)? = nil
    ) -> SettingSpec {
        let plain = optional(key, path, flag: flag, environment: environment, shown: shown, meaning, also: also)
        return plain.checked { root throws(SettingsError) in
            guard let given = root[keyPath: path], !range.contains(given) else { return }
            throw SettingsError("\(plain.name) must be \(range.lowerBound) to \(range.upperBound), not \(given)")
        }
    }

    /// A setting read by hand: `read` makes the value from the text the file or a flag gives.
    public static func text(
        _ key: String, flag: String? = nil, environment: String? = nil, shown: String, _ meaning: String,
        read: @escaping @Sendable (inout Root, String) -> Void
    ) -> SettingSpec {
        SettingSpec(
            key: key, flag: flag, environment: environment, meaning: meaning, flagTakesValue: true,
            shownDefault: { _ in shown },
            readJSON: { root, data in read(&root, try JSONDecoder().decode(String.self, from: data)) },
            readText: { root, text in
                read(&root, text)
                return true
            },
            expected: String.expected, check: { _ throws(SettingsError) in })
    }

    /// This setting with `more` checked first.
    func checked(_ more: @escaping @Sendable (inout Root) throws(SettingsError) -> Void) -> SettingSpec {
        let first = check
        return SettingSpec(
            key: key, flag: flag, environment: environment, meaning: meaning, flagTakesValue: flagTakesValue,
            shownDefault: shownDefault, readJSON: readJSON, readText: readText, expected: expected,
            check: { root throws(SettingsError) in
                try more(&root)
                try first(&root)
            })
    }
}
