import CodeRulesCore
import Foundation

// The library does the work and returns the status; this file only connects it to the process.
let status = CodeRulesCommand.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    standardOutput: { line in print(line) },
    standardError: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
)
exit(status)
