import SwiftSyntax

/// Walks one parsed file and records every rule violation, before allow comments apply.
final class RuleVisitor: SyntaxVisitor {
    private let path: String
    private let converter: SourceLocationConverter
    /// Top-level `var`s in main.swift are globals too; the message says so to head off "but it's a script".
    private let isMainFile: Bool
    private(set) var violations: [Violation] = []

    init(path: String, converter: SourceLocationConverter) {
        self.path = path
        self.converter = converter
        self.isMainFile = path.split(separator: "/").last == "main.swift"
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Crash operators

    override func visit(_ node: ForceUnwrapExprSyntax) -> SyntaxVisitorContinueKind {
        record(.forceUnwrap, at: node.exclamationMark,
               "force unwrap of `\(node.expression.trimmedDescription)` traps on nil; use `guard let`, `if let`, `??` or throw")
        return .visitChildren
    }

    override func visit(_ node: KeyPathOptionalComponentSyntax) -> SyntaxVisitorContinueKind {
        // `\Type.property!` traps exactly like `x!` when the key path is applied.
        if node.questionOrExclamationMark.tokenKind == .exclamationMark {
            record(.forceUnwrap, at: node.questionOrExclamationMark,
                   "force unwrap in a key path traps on nil; use `?` and handle nil")
        }
        return .visitChildren
    }

    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark?.tokenKind == .exclamationMark {
            record(.forceTry, at: node.tryKeyword,
                   "`try!` traps when the call throws; propagate with `try` or handle with `do`/`catch`")
        }
        return .visitChildren
    }

    // The parser leaves `as` unfolded inside sequence expressions; folded trees
    // (from SwiftOperators) use AsExprSyntax instead, so both are checked.
    override func visit(_ node: UnresolvedAsExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark?.tokenKind == .exclamationMark {
            record(.forceCast, at: node.asKeyword, forceCastMessage)
        }
        return .visitChildren
    }

    override func visit(_ node: AsExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark?.tokenKind == .exclamationMark {
            record(.forceCast, at: node.asKeyword, forceCastMessage)
        }
        return .visitChildren
    }

    private var forceCastMessage: String {
        "`as!` traps when the cast fails; use `as?` and handle nil"
    }

    override func visit(_ node: ImplicitlyUnwrappedOptionalTypeSyntax) -> SyntaxVisitorContinueKind {
        record(.implicitlyUnwrappedOptional, at: node.exclamationMark,
               "implicitly unwrapped `\(node.trimmedDescription)` traps on nil when used; use `\(node.wrappedType.trimmedDescription)?` or a non-optional")
        return .visitChildren
    }

    // MARK: Digit accumulation

    /// `n = n * 10 + d`, `n = min(n * 16 + d, cap)`: an assignment to `n` whose right side
    /// multiplies `n` and adds to it. On a number read from a feed that overflows and traps.
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self),
              let target = elements[0].as(DeclReferenceExprSyntax.self)?.baseName
        else { return .visitChildren }
        let name = target.text
        let right = Array(elements.dropFirst(2))
        if Self.multiplies(name, among: right) || right.contains(where: { Self.multiplies(name, in: $0) }) {
            record(.uncheckedDigitAccumulation, at: target,
                   "`\(name) = \(name) * …` overflows and traps on long input; read digits with `BoundedNumber` (saturating)")
        }
        return .visitChildren
    }

    /// Whether `node` (or a sequence inside it) holds `name * …`.
    private static func multiplies(_ name: String, in node: some SyntaxProtocol) -> Bool {
        if let sequence = node.as(SequenceExprSyntax.self), multiplies(name, among: Array(sequence.elements)) {
            return true
        }
        return node.children(viewMode: .sourceAccurate).contains { multiplies(name, in: $0) }
    }

    /// Whether the unfolded operands and operators `parts` hold `name * … + …`, the shape of
    /// appending a digit (`value * 3 / 4`, a scaling, is not it).
    private static func multiplies(_ name: String, among parts: [ExprSyntax]) -> Bool {
        parts.indices.dropLast().contains { index in
            parts[index].as(DeclReferenceExprSyntax.self)?.baseName.text == name
                && parts[index + 1].as(BinaryOperatorExprSyntax.self)?.operator.text == "*"
                && parts[(index + 2)...].contains { $0.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" }
        }
    }

    // MARK: Global mutable state

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        checkSharedState(node)
        return .visitChildren
    }

    private func checkSharedState(_ node: VariableDeclSyntax) {
        let names = node.bindings.map { $0.pattern.trimmedDescription }.joined(separator: ", ")
        let isVar = node.bindingSpecifier.tokenKind == .keyword(.var)
        let isStored = node.bindings.contains { $0.isStored }
        let unsafeModifier = node.modifiers.first { modifier in
            modifier.name.tokenKind == .keyword(.nonisolated) && modifier.detail?.detail.text == "unsafe"
        }
        let typeModifier = node.modifiers.first { modifier in
            modifier.name.tokenKind == .keyword(.static) || modifier.name.tokenKind == .keyword(.class)
        }
        // `@TaskLocal static var` expands to a `static let` TaskLocal plus a get-only accessor:
        // values are bound per task with `withValue`, never assigned, so it is not shared mutable state.
        let isTaskLocal = node.attributes.contains { element in
            element.as(AttributeSyntax.self)?.attributeName.trimmedDescription.split(separator: ".").last == "TaskLocal"
        }

        switch DeclarationScope.of(node) {
        case .local, .protocolRequirement:
            return
        case .fileTopLevel:
            if let unsafeModifier {
                record(.globalMutableState, at: unsafeModifier.name,
                       "`nonisolated(unsafe)` global `\(names)` opts out of data-race checking; pass the value in or use an actor")
            } else if isVar && isStored {
                let whereText = isMainFile ? "top-level `var` in main.swift is a global" : "stored global `var`"
                record(.globalMutableState, at: node.bindingSpecifier,
                       "\(whereText) `\(names)` is shared mutable state; pass it in, or make it a `let` or a local")
            }
        case .typeMember:
            guard let typeModifier, !isTaskLocal else { return }
            let keyword = typeModifier.name.text
            if let unsafeModifier {
                record(.globalMutableState, at: unsafeModifier.name,
                       "`nonisolated(unsafe) \(keyword)` `\(names)` opts out of data-race checking; pass the value in or use an actor")
            } else if isVar && isStored {
                record(.globalMutableState, at: typeModifier.name,
                       "stored `\(keyword) var` `\(names)` is shared mutable state; use `\(keyword) let` or pass an instance in")
            }
        }
    }

    // MARK: Recording

    private func record(_ rule: Rule, at token: TokenSyntax, _ message: String) {
        let location = converter.location(for: token.positionAfterSkippingLeadingTrivia)
        violations.append(
            Violation(path: path, line: location.line, column: location.column, rule: rule, message: message)
        )
    }
}

/// Where a declaration lives, which decides whether a `var` there is shared state.
enum DeclarationScope: Equatable {
    /// Directly in the file, possibly inside `#if`: a global.
    case fileTopLevel
    /// A member of a type or extension.
    case typeMember
    /// A protocol requirement: declares no storage.
    case protocolRequirement
    /// Inside a function, closure, accessor or statement body.
    case local

    /// Finds the innermost enclosing scope by walking up the tree.
    static func of(_ node: some SyntaxProtocol) -> DeclarationScope {
        var current = node.parent
        while let syntax = current {
            // Closures and get-only accessor bodies hold statements without a CodeBlockSyntax,
            // and switch cases hold them directly, so each is its own local scope.
            if syntax.is(CodeBlockSyntax.self) || syntax.is(ClosureExprSyntax.self)
                || syntax.is(AccessorBlockSyntax.self) || syntax.is(SwitchCaseSyntax.self) {
                return .local
            }
            if let memberBlock = syntax.as(MemberBlockSyntax.self) {
                return memberBlock.parent?.is(ProtocolDeclSyntax.self) == true ? .protocolRequirement : .typeMember
            }
            if syntax.is(SourceFileSyntax.self) {
                return .fileTopLevel
            }
            current = syntax.parent
        }
        return .fileTopLevel
    }
}

extension PatternBindingSyntax {
    /// Whether this binding has storage: no accessors, or only `willSet`/`didSet` observers.
    var isStored: Bool {
        guard let accessorBlock else { return true }
        switch accessorBlock.accessors {
        case .getter:
            return false
        case .accessors(let accessors):
            return accessors.allSatisfy { accessor in
                let kind = accessor.accessorSpecifier.tokenKind
                return kind == .keyword(.willSet) || kind == .keyword(.didSet)
            }
        }
    }
}
