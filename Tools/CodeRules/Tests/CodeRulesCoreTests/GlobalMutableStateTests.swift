import Testing
@testable import CodeRulesCore

@Suite struct GlobalMutableStateTests {
    @Test(arguments: [
        "var counter = 0",
        "var cache: [String: Int] = [:]",
        "private var level = 1",
        "@MainActor var shared = State()",
        "var observed = 0 { didSet { log() } }",
        "var watched = 0 { willSet { log() } didSet { log() } }",
        "var (a, b) = (1, 2)",
        "#if DEBUG\nvar debugFlag = true\n#endif",
        "struct S { static var count = 0 }",
        "final class C { static var shared = C() }",
        "enum E { static var mode: Mode = .fast }",
        "extension S { static var extra = 1 }",
        "struct S { static var watched = 0 { didSet {} } }",
        "class C { class var stored = 0 }",
        "struct Outer { struct Inner { static var deep = 0 } }",
        "nonisolated(unsafe) let formatter = Formatter()",
        "nonisolated(unsafe) var global = 0",
        "struct S { nonisolated(unsafe) static let shared = S() }",
        "struct S { nonisolated(unsafe) static var shared = S() }",
    ])
    func flagsSharedState(source: String) {
        #expect(ruleNames(source) == ["global-mutable-state"])
    }

    @Test(arguments: [
        "let limit = 10",
        "var computed: Int { 1 }",
        "var computed: Int { get { 1 } set { } }",
        "struct S { static let shared = S() }",
        "struct S { static var computed: Int { 1 } }",
        "struct S { static var both: Int { get { 1 } set { store(newValue) } } }",
        "class C { class var name: String { \"C\" } }",
        "struct S { var instance = 0 }",
        "final class C { private var count = 0; lazy var lazyValue = 1 }",
        "struct S { var observed = 0 { didSet { } } }",
        "func f() { var local = 0; local += 1 }",
        "let f = { var local = 0; local += 1; return local }",
        "var computed: Int { var temp = 1; temp += 1; return temp }",
        "struct S { init() { var x = 0; x += 1 } }",
        "protocol P { static var requirement: Int { get set } }",
        "protocol P { var instance: Int { get } }",
        "enum TraceContext { @TaskLocal static var id: String? }",
        "func f() { for var i in [1] { i += 1 } }",
        "if flag { var x = 1; x += 1 }",
        "switch v { case 1: var x = 1; x += 1\ndefault: break }",
    ])
    func allowsLocalAndImmutableState(source: String) {
        #expect(ruleNames(source).isEmpty)
    }

    @Test func topLevelVarInMainSwiftIsGlobal() throws {
        let found = try #require(violations("var verbose = false\nrun()", path: "Sources/tool/main.swift").first)
        #expect(found.rule == .globalMutableState)
        #expect(found.message.contains("main.swift"))
    }

    @Test func localsInMainSwiftStatementsAreFine() {
        #expect(ruleNames("do { var x = 0; x += 1 }\nfor var i in [1] { i += 1 }", path: "Sources/tool/main.swift").isEmpty)
    }

    @Test func reportsAtTheKeyword() throws {
        let found = try #require(violations("struct S {\n    static var count = 0\n}").first)
        #expect((found.line, found.column) == (2, 5))
    }
}
