@testable import CodeRulesCore

/// The rule names reported for `source`, in report order.
func ruleNames(_ source: String, path: String = "Sources/Example/File.swift") -> [String] {
    CodeRuleChecker.check(source: source, path: path).violations.map(\.rule.rawValue)
}

/// The violations reported for `source`.
func violations(_ source: String, path: String = "Sources/Example/File.swift") -> [Violation] {
    CodeRuleChecker.check(source: source, path: path).violations
}
