import Foundation

/// Some of the settings, as one place gives them (the config file, the environment, the command
/// line): values by key, each still as given, with where it came from for messages.
public struct SettingLayer: Sendable, Equatable {
    /// A value as given.
    public enum Given: Sendable, Equatable {
        /// The config file's JSON text for the key.
        case json(Data)
        /// A flag's or a variable's text.
        case text(String)
    }

    /// The values by key, with where each came from (`--port`, `$NEWSAPI_KEY`, `the config file x`).
    public var values: [String: (given: Given, origin: String)] = [:]

    public init() {}

    public static func == (left: SettingLayer, right: SettingLayer) -> Bool {
        left.values.mapValues(\.given) == right.values.mapValues(\.given)
    }
}

/// Any JSON value, kept to be read again by the setting it belongs to.
private indirect enum JSONFragment: Codable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int)
    case string(String)
    case array([JSONFragment])
    case object([String: JSONFragment])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONFragment].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONFragment].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// A list of ``SettingSpec``s, and what is derived from it: reading each place's values, merging
/// and checking them, README's table and the command line's help. Adding a setting is one entry.
public struct SettingsSchema<Root: Sendable>: Sendable {
    public let specs: [SettingSpec<Root>]

    public init(_ specs: [SettingSpec<Root>]) {
        self.specs = specs
    }

    /// The config file's values: a JSON object, every key a setting's. An unknown key is refused
    /// (a misspelt setting would otherwise be quietly ignored), naming the nearest known one.
    public func fileLayer(_ data: Data, path: String) throws(SettingsError) -> SettingLayer {
        let object: [String: JSONFragment]
        do {
            object = try JSONDecoder().decode([String: JSONFragment].self, from: data)
        } catch DecodingError.typeMismatch {
            throw SettingsError("bad config file \(path): it must be one JSON object, {\"key\": value, …}")
        } catch {
            throw SettingsError("bad config file \(path): not JSON (\(Self.reason(error)))")
        }
        var layer = SettingLayer()
        for (key, value) in object {
            guard specs.contains(where: { $0.key == key }) else {
                throw SettingsError("bad config file \(path): no setting is called \(key)\(suggestion(for: key))")
            }
            // Each value again as JSON text, read by its setting's own type.
            guard let text = try? JSONEncoder().encode(value) else { continue }
            layer.values[key] = (.json(text), "config file \(path)")
        }
        return layer
    }

    /// The environment's values: each setting's variable, when set and not empty.
    public func environmentLayer(_ variables: [String: String]) -> SettingLayer {
        var layer = SettingLayer()
        for spec in specs {
            guard let name = spec.environment, let value = variables[name], !value.isEmpty else { continue }
            layer.values[spec.key] = (.text(value), "$\(name)")
        }
        return layer
    }

    /// The command line's values: `--flag value`, `--flag=value`, or a Boolean's `--flag` alone.
    /// Anything else is refused, naming the nearest flag, among the settings' and `otherFlags`
    /// (a command's own, declared elsewhere: a misspelt `--verbos` gets its suggestion too).
    public func commandLineLayer(_ arguments: [String], otherFlags: [String] = []) throws(SettingsError) -> SettingLayer {
        var layer = SettingLayer()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else { throw SettingsError("unexpected argument \(argument)") }
            let word = argument.dropFirst(2)
            let name = String(word.prefix { $0 != "=" })
            let inline = word.firstIndex(of: "=").map { String(word[word.index(after: $0)...]) }
            guard let spec = specs.first(where: { $0.flag == name }) else {
                throw SettingsError("unknown option --\(name)\(suggestion(forFlag: name, among: otherFlags))")
            }
            let value: String
            if !spec.flagTakesValue {
                value = inline ?? "true"
            } else if let inline {
                value = inline
            } else if let next = rest.popFirst() {
                value = next
            } else {
                throw SettingsError("--\(name) needs a value")
            }
            layer.values[spec.key] = (.text(value), "--\(name)")
        }
        return layer
    }

    /// `defaults`, then each layer's values in turn (a later one wins), then `adjust`, then every
    /// setting's check.
    public func resolve(
        _ defaults: Root, layers: [SettingLayer], adjust: (inout Root) -> Void = { _ in }
    ) throws(SettingsError) -> Root {
        var root = defaults
        for layer in layers {
            for spec in specs {
                guard let (given, origin) = layer.values[spec.key] else { continue }
                switch given {
                case .text(let text):
                    guard spec.readText(&root, text) else {
                        throw SettingsError("\(origin) (\(spec.key)) must be \(spec.expected), not \"\(text)\"")
                    }
                case .json(let data):
                    do {
                        try spec.readJSON(&root, data)
                    } catch {
                        throw SettingsError("bad \(origin) at \(spec.key): it must be \(spec.expected) (\(Self.reason(error)))")
                    }
                }
            }
        }
        adjust(&root)
        for spec in specs { try spec.check(&root) }
        return root
    }

    /// README's settings table.
    public func markdownTable(defaults: Root) -> String {
        var lines = [
            "| setting (config file) | flag | environment | default | what it does |",
            "|---|---|---|---|---|",
        ]
        for spec in specs {
            let flag = spec.flag.map { "`--\($0)`" } ?? ""
            let environment = spec.environment.map { "`\($0)`" } ?? ""
            lines.append(
                "| `\(spec.key)` | \(flag) | \(environment) | \(spec.shownDefault(defaults)) | \(spec.meaning) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The settings' flags, a line each, for a command's help; `except` those it declares itself.
    public func flagHelp(defaults: Root, except: Set<String> = []) -> String {
        specs.compactMap { spec -> String? in
            guard let flag = spec.flag, !except.contains(flag) else { return nil }
            let value = spec.flagTakesValue ? " <\(spec.key)>" : ""
            let shown = spec.shownDefault(defaults).replacingOccurrences(of: "`", with: "")
            return "  --\(flag)\(value)  (default: \(shown))\n      \(spec.meaning.replacingOccurrences(of: "`", with: ""))"
        }.joined(separator: "\n")
    }

    /// A decoding failure in a sentence ("expected a whole number").
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "expected \(type)\(at.isEmpty ? "" : " at \(at)"): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context):
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(at.isEmpty ? "" : "at \(at): ")\(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    private func suggestion(for key: String) -> String {
        nearest(key, among: specs.map(\.key)).map { " (did you mean \($0)?)" } ?? ""
    }

    private func suggestion(forFlag flag: String, among others: [String]) -> String {
        nearest(flag, among: specs.compactMap(\.flag) + others).map { " (did you mean --\($0)?)" } ?? ""
    }

    /// The candidate that differs from `word` by at most a third of its letters, if any.
    private func nearest(_ word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, Self.distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
