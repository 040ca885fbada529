/// A rule the checker enforces, named as it appears in reports and allow comments.
public enum Rule: String, CaseIterable, Sendable, Comparable {
    /// `x!` and `\Type.property!`: crashes when the value is nil.
    case forceUnwrap = "force-unwrap"
    /// `try!`: crashes when the call throws.
    case forceTry = "force-try"
    /// `as!`: crashes when the cast fails.
    case forceCast = "force-cast"
    /// `T!` in a type position.
    case implicitlyUnwrappedOptional = "implicitly-unwrapped-optional"
    /// Stored top-level `var`, stored `static var`/`class var`, or `nonisolated(unsafe)` globals and statics.
    case globalMutableState = "global-mutable-state"
    /// `n = n * base + digit` (or `n * base` inside a call on the right): the way digit runs from
    /// untrusted text are read, and the way they overflow and trap. Use `BoundedNumber`.
    case uncheckedDigitAccumulation = "unchecked-digit-accumulation"
    /// A `// code-rules:allow` comment that names no known rule or gives no reason.
    case invalidAllow = "invalid-allow"
    /// A `// code-rules:allow` comment on a line that has no violation of its rule.
    case unusedAllow = "unused-allow"

    /// Whether a `// code-rules:allow` comment may silence this rule.
    ///
    /// The allow-comment rules police the escape hatch itself, so they cannot be waived.
    public var isSuppressible: Bool {
        switch self {
        case .invalidAllow, .unusedAllow:
            false
        case .forceUnwrap, .forceTry, .forceCast, .implicitlyUnwrappedOptional, .globalMutableState,
             .uncheckedDigitAccumulation:
            true
        }
    }

    /// One line describing the rule, for `--list-rules`.
    public var summary: String {
        switch self {
        case .forceUnwrap:
            "no force unwraps (`x!`, `x!.y`, `\\T.p!`)"
        case .forceTry:
            "no `try!`"
        case .forceCast:
            "no `as!`"
        case .implicitlyUnwrappedOptional:
            "no implicitly unwrapped optional types (`T!`)"
        case .globalMutableState:
            "no stored top-level `var`, stored `static var`/`class var`, or `nonisolated(unsafe)` global/static"
        case .uncheckedDigitAccumulation:
            "no `n = n * base + digit` (it traps on overflow); read digit runs with `BoundedNumber`"
        case .invalidAllow:
            "allow comments must name a suppressible rule and give a reason"
        case .unusedAllow:
            "allow comments must sit on a line with a violation of the rule they name"
        }
    }

    /// Orders rules by their order of declaration, so reports are stable.
    public static func < (lhs: Rule, rhs: Rule) -> Bool {
        let order = Rule.allCases
        return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
    }
}

/// One broken rule at one place in one file.
public struct Violation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as the checker was given it (relative paths stay relative).
    public let path: String
    /// 1-based line.
    public let line: Int
    /// 1-based column, in UTF-8 bytes as the compiler counts them.
    public let column: Int
    /// The rule broken.
    public let rule: Rule
    /// What is wrong and what to do instead.
    public let message: String

    /// Creates a violation; the checker makes these, tests compare against them.
    public init(path: String, line: Int, column: Int, rule: Rule, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.rule = rule
        self.message = message
    }

    /// `path:line:column: rule-name: message`, the format editors and CI logs link up.
    public var description: String {
        "\(path):\(line):\(column): \(rule.rawValue): \(message)"
    }

    /// Orders by path, then position, then rule.
    public static func < (lhs: Violation, rhs: Violation) -> Bool {
        (lhs.path, lhs.line, lhs.column) != (rhs.path, rhs.line, rhs.column)
            ? (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
            : lhs.rule < rhs.rule
    }
}
