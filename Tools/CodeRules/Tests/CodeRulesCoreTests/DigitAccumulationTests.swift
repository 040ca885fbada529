import Testing
@testable import CodeRulesCore

@Suite struct DigitAccumulationTests {
    @Test(arguments: [
        "func f() { value = value * 10 + digit }",
        "func f() { value = min(value * 16 + digit, 0x110000) }",
        "func f() { n = n * radix + Int(byte - 48) }",
        "func f() { if count < 9 { value = value * 10 + Int(b &- 0x30) } }",
    ])
    func flagsAccumulation(source: String) {
        #expect(ruleNames(source) == ["unchecked-digit-accumulation"])
    }

    @Test(arguments: [
        "func f() { value = other * 10 + digit }",
        "func f() { hash = hash &* prime }",
        "func f() { let total = value * 10 + digit }",
        "func f() { value = value + 1 }",
        "func f() { number.append(digit) }",
        "func f() { value *= 2 }",
        "func f() { if shaded { value = value * 3 / 4 } }",
    ])
    func ignoresOtherArithmetic(source: String) {
        #expect(ruleNames(source).isEmpty)
    }

    @Test func canBeAllowedWithAReason() {
        let source = "func f() { value = value * 10 + d // code-rules:allow unchecked-digit-accumulation d < 10, 3 digits at most\n}"
        #expect(ruleNames(source).isEmpty)
    }
}
