import Foundation
import Testing
@testable import CodeRulesCore

/// A scratch directory tree for one test.
private struct ScratchTree {
    let root: String

    func write(_ relativePath: String, _ contents: String) throws {
        let path = "\(root)/\(relativePath)"
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// Runs `body` with a fresh scratch tree and removes the tree afterwards, even if `body` throws.
/// (A scope-bound helper rather than a deinit: Swift may end an object's lifetime after its last use.)
private func withScratchTree(_ body: (ScratchTree) throws -> Void) throws {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("code-rules-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try body(ScratchTree(root: root))
}

/// Runs the command and captures what it printed.
private func runCommand(_ arguments: [String]) -> (status: Int32, output: [String], errors: [String]) {
    var output: [String] = []
    var errors: [String] = []
    let status = CodeRulesCommand.run(
        arguments: arguments,
        standardOutput: { output.append($0) },
        standardError: { errors.append($0) }
    )
    return (status, output, errors)
}

@Suite struct SourceFilesTests {
    @Test func walksSwiftFilesSkippingBuildDirectories() throws {
        try withScratchTree { tree in
            try tree.write("B.swift", "")
            try tree.write("A/Nested.swift", "")
            try tree.write("A/readme.md", "")
            try tree.write(".build/checkouts/Dep.swift", "")
            try tree.write("Sub/.build-linux/Dep.swift", "")
            let files = try SourceFiles.collect(under: [tree.root + "/"])
            #expect(files == ["\(tree.root)/A/Nested.swift", "\(tree.root)/B.swift"])
        }
    }

    @Test func missingPathIsAnError() {
        #expect(throws: PathError.self) {
            try SourceFiles.collect(under: ["/nonexistent/code-rules/path"])
        }
    }
}

@Suite struct CommandTests {
    @Test func cleanTreeExitsZeroWithSummary() throws {
        try withScratchTree { tree in
            try tree.write("Clean.swift", "let a = 1\nfunc f(_ x: Int?) -> Int { x ?? 0 }\n")
            let result = runCommand([tree.root])
            #expect(result.status == 0)
            #expect(result.output == ["code-rules: 0 violations in 1 file"])
        }
    }

    @Test func violationsExitOneAndPrintLocations() throws {
        try withScratchTree { tree in
            try tree.write("Dirty.swift", "var counter = 0\nlet y = x!\n")
            try tree.write("Clean.swift", "let a = 1\n")
            let result = runCommand([tree.root])
            #expect(result.status == 1)
            #expect(result.output.count == 3)
            #expect(result.output.first?.hasPrefix("\(tree.root)/Dirty.swift:1:1: global-mutable-state: ") == true)
            #expect(result.output.dropFirst().first?.hasPrefix("\(tree.root)/Dirty.swift:2:10: force-unwrap: ") == true)
            #expect(result.output.last == "code-rules: 2 violations in 2 files")
        }
    }

    @Test func unknownOptionIsAUsageError() {
        let result = runCommand(["--frobnicate"])
        #expect(result.status == 2)
        #expect(result.errors.first == "code-rules: unknown option --frobnicate")
    }

    @Test func missingPathIsAUsageError() {
        #expect(runCommand(["/nonexistent/code-rules/path"]).status == 2)
    }

    @Test func nonSwiftFileIsAUsageError() throws {
        try withScratchTree { tree in
            try tree.write("notes.txt", "x!")
            #expect(runCommand(["\(tree.root)/notes.txt"]).status == 2)
        }
    }

    @Test func listRulesNamesEveryRule() {
        let result = runCommand(["--list-rules"])
        #expect(result.status == 0)
        #expect(result.output.count == Rule.allCases.count)
    }
}
