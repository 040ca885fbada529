import Testing
@testable import CodeRulesCore

@Suite struct AllowCommentTests {
    @Test func allowWithReasonSilencesThatRuleOnThatLine() {
        #expect(ruleNames("let y = x! // code-rules:allow force-unwrap x is set in init above").isEmpty)
    }

    @Test func allowCoversEveryViolationOfTheRuleOnTheLine() {
        #expect(ruleNames("let y = a! + b! // code-rules:allow force-unwrap both checked by the caller").isEmpty)
    }

    @Test func allowOnlySilencesTheNamedRule() {
        #expect(ruleNames("let y = x! as! Int // code-rules:allow force-unwrap checked above") == ["force-cast"])
    }

    @Test func allowOnAnotherLineDoesNothing() {
        let source = "// code-rules:allow force-unwrap checked above\nlet y = x!"
        #expect(ruleNames(source) == ["unused-allow", "force-unwrap"])
    }

    @Test func allowWithoutReasonIsInvalidAndSilencesNothing() {
        #expect(ruleNames("let y = x! // code-rules:allow force-unwrap") == ["force-unwrap", "invalid-allow"])
    }

    @Test func allowForUnknownRuleIsInvalid() {
        #expect(ruleNames("let y = 1 // code-rules:allow no-such-rule because") == ["invalid-allow"])
    }

    @Test func allowCannotSilenceTheAllowRules() {
        #expect(ruleNames("let y = 1 // code-rules:allow unused-allow because") == ["invalid-allow"])
    }

    @Test func misspelledDirectiveIsInvalid() {
        #expect(ruleNames("let y = x! // code-rules:alow force-unwrap checked") == ["force-unwrap", "invalid-allow"])
    }

    @Test func unusedAllowIsReported() {
        #expect(ruleNames("let y = 1 // code-rules:allow force-unwrap left over") == ["unused-allow"])
    }

    @Test func allowSilencesGlobalStateOnTheDeclarationLine() {
        #expect(ruleNames("struct S {\n    static var hits = 0 // code-rules:allow global-mutable-state test counter\n}").isEmpty)
    }

    @Test func markerInDocCommentsAndStringsIsIgnored() {
        #expect(ruleNames("/// code-rules:allow force-unwrap doc\nlet s = \"// code-rules:allow force-unwrap x\"").isEmpty)
    }

    @Test func parseReadsRuleAndReason() {
        guard case .allow(let rule, let reason) = AllowComment.parse("//code-rules:allow force-try  fixture is  bundled") else {
            Issue.record("expected a valid allow comment")
            return
        }
        #expect(rule == .forceTry)
        #expect(reason == "fixture is bundled")
    }

    @Test func parseIgnoresOrdinaryComments() {
        #expect(AllowComment.parse("// just a note about code-rules:allow") == nil)
    }
}
