import Foundation

/// The `code-rules` command line, kept in the library so tests can run it without a process.
public enum CodeRulesCommand {
    /// Exit status when every file is clean.
    public static let exitClean: Int32 = 0
    /// Exit status when any violation is reported.
    public static let exitViolations: Int32 = 1
    /// Exit status for a bad option, a missing path or an unreadable file.
    public static let exitUsage: Int32 = 2

    /// Help text for `--help` and usage errors.
    public static let usage = """
        usage: code-rules [--list-rules] [--] [path ...]

        Checks the .swift files under each path (default: Sources) for force unwraps,
        try!, as!, implicitly unwrapped optionals and global mutable state.
        Skips .build* directories. Prints `path:line:column: rule-name: message` per
        violation and a summary line; exits 0 when clean, 1 on violations, 2 on usage errors.

        Silence one line with a reason: `// code-rules:allow <rule-name> <reason>`.
        """

    /// Runs the command.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - standardOutput: Receives report lines, one per call.
    ///   - standardError: Receives warnings and errors, one line per call.
    /// - Returns: The process exit status.
    public static func run(
        arguments: [String],
        standardOutput: (String) -> Void,
        standardError: (String) -> Void
    ) -> Int32 {
        var paths: [String] = []
        var optionsEnded = false
        for argument in arguments {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                paths.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument == "-h" || argument == "--help" {
                standardOutput(usage)
                return exitClean
            } else if argument == "--list-rules" {
                for rule in Rule.allCases {
                    standardOutput("\(rule.rawValue): \(rule.summary)")
                }
                return exitClean
            } else {
                standardError("code-rules: unknown option \(argument)")
                standardError(usage)
                return exitUsage
            }
        }
        if paths.isEmpty {
            paths = ["Sources"]
        }

        let files: [String]
        do {
            files = try SourceFiles.collect(under: paths)
        } catch {
            standardError("code-rules: \(error)")
            return exitUsage
        }

        var violationCount = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                standardError("code-rules: cannot read \(file)")
                return exitUsage
            }
            let report = CodeRuleChecker.check(source: String(decoding: data, as: UTF8.self), path: file)
            if report.hasSyntaxErrors {
                // The compiler will reject the file anyway; say so rather than fail on it here.
                standardError("code-rules: warning: \(file) has syntax errors; it may be only partly checked")
            }
            for violation in report.violations {
                standardOutput(violation.description)
            }
            violationCount += report.violations.count
        }
        standardOutput("code-rules: \(violationCount) \(violationCount == 1 ? "violation" : "violations") in \(files.count) \(files.count == 1 ? "file" : "files")")
        return violationCount == 0 ? exitClean : exitViolations
    }
}
