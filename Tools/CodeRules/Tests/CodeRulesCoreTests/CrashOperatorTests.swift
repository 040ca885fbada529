import Testing
@testable import CodeRulesCore

@Suite struct ForceUnwrapTests {
    @Test(arguments: [
        "let y = x!",
        "let n = x!.count",
        "let v = dict[\"a\"]!",
        "let r = make()!",
        "func f() { value!.run() }",
        "let k = \\Foo.bar!.baz",
    ])
    func flagsForceUnwrap(source: String) {
        #expect(ruleNames(source) == ["force-unwrap"])
    }

    @Test func flagsEachUnwrapInAChain() {
        #expect(ruleNames("let y = a!.b!.c") == ["force-unwrap", "force-unwrap"])
    }

    @Test(arguments: [
        "let same = a != b",
        "let notSame = !(a == b)",
        "if !flag { run() }",
        "let v = x?.y",
        "let v = try? load()",
        "let v = value as? Int",
        "let v = !flag && other",
        "#if !os(Linux)\nlet a = 1\n#endif",
        "let k = \\Foo.bar?.baz",
        "let s = \"x! is fine in a string\"",
        "// x! in a comment",
    ])
    func ignoresLookalikes(source: String) {
        #expect(ruleNames(source).isEmpty)
    }

    @Test func reportsThePositionOfTheBang() throws {
        let found = try #require(violations("let a = 1\nlet y = value!.count").first)
        #expect(found.line == 2)
        #expect(found.column == 14)
        #expect(found.description.hasPrefix("Sources/Example/File.swift:2:14: force-unwrap: "))
    }
}

@Suite struct ForceTryTests {
    @Test(arguments: ["let v = try! load()", "func f() { try! run() }", "let v = try! await fetch()"])
    func flagsForceTry(source: String) {
        #expect(ruleNames(source) == ["force-try"])
    }

    @Test(arguments: ["let v = try load()", "let v = try? load()", "let v = try await fetch()"])
    func ignoresOtherTry(source: String) {
        #expect(ruleNames(source).isEmpty)
    }

    @Test func reportsAtTheTryKeyword() throws {
        let found = try #require(violations("let v = try! load()").first)
        #expect((found.line, found.column) == (1, 9))
    }
}

@Suite struct ForceCastTests {
    @Test(arguments: [
        "let v = x as! Int",
        "let v = (x as! Int) + 1",
        "let v = a + b as! Int",
        "func f() { use(any as! String) }",
    ])
    func flagsForceCast(source: String) {
        #expect(ruleNames(source) == ["force-cast"])
    }

    @Test(arguments: ["let v = x as? Int", "let v = x as Int", "let v = x is Int", "if x is Int {}"])
    func ignoresOtherCasts(source: String) {
        #expect(ruleNames(source).isEmpty)
    }
}

@Suite struct ImplicitlyUnwrappedOptionalTests {
    @Test(arguments: [
        "struct S { var x: Int! }",
        "func f() -> String! { nil }",
        "let a: [Int!] = []",
        "func f(x: Int!) {}",
        "class C { @IBOutlet weak var label: Label! }",
        "let d: [String: Int!] = [:]",
    ])
    func flagsIUO(source: String) {
        #expect(ruleNames(source) == ["implicitly-unwrapped-optional"])
    }

    @Test(arguments: ["struct S { var x: Int? }", "func f() -> String? { nil }", "let a: [Int?] = []"])
    func ignoresOptionals(source: String) {
        #expect(ruleNames(source).isEmpty)
    }

    @Test func iuoAndUnwrapAreSeparateRules() {
        #expect(ruleNames("struct S { var x: Int!\n func f() { _ = y! } }") == ["implicitly-unwrapped-optional", "force-unwrap"])
    }
}
