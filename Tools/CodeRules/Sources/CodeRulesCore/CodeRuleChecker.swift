import SwiftParser
import SwiftSyntax

/// The outcome of checking one file.
public struct FileReport: Sendable {
    /// The file's path as given.
    public let path: String
    /// Violations left after allow comments apply, sorted by position.
    public let violations: [Violation]
    /// The parser found errors, so some code may not have been checked as written.
    public let hasSyntaxErrors: Bool
}

/// Checks Swift source against the project's code rules.
public enum CodeRuleChecker {
    /// Parses `source` and returns the violations in it.
    ///
    /// - Parameters:
    ///   - source: The file's text.
    ///   - path: Used in reports, and to recognise `main.swift`.
    public static func check(source: String, path: String) -> FileReport {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        let visitor = RuleVisitor(path: path, converter: converter)
        visitor.walk(tree)
        let allows = AllowComment.collect(in: tree, converter: converter)
        return FileReport(
            path: path,
            violations: applyAllows(allows, to: visitor.violations, path: path).sorted(),
            hasSyntaxErrors: tree.hasError
        )
    }

    /// Drops violations silenced by a valid allow comment on their line, and reports
    /// allow comments that are invalid or silence nothing.
    private static func applyAllows(_ allows: [AllowComment], to violations: [Violation], path: String) -> [Violation] {
        var used = Set<Int>()  // indices into `allows`
        var kept: [Violation] = []
        for violation in violations {
            let match = allows.indices.first { index in
                guard allows[index].line == violation.line, case .allow(let rule, _) = allows[index].content else {
                    return false
                }
                return rule == violation.rule
            }
            if let match {
                used.insert(match)
            } else {
                kept.append(violation)
            }
        }
        for (index, allow) in allows.enumerated() {
            switch allow.content {
            case .invalid(let reason):
                kept.append(Violation(path: path, line: allow.line, column: allow.column, rule: .invalidAllow, message: reason))
            case .allow(let rule, _) where !used.contains(index):
                kept.append(Violation(
                    path: path, line: allow.line, column: allow.column, rule: .unusedAllow,
                    message: "no `\(rule.rawValue)` violation on this line; remove the allow comment"
                ))
            case .allow:
                break
            }
        }
        return kept
    }
}
