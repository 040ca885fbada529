import Crypto
import Foundation
import Testing

@testable import KioskWeb

/// The image proxy's URL signatures.
@Suite struct ImageSignerTests {
    let signer = ImageSigner(key: SymmetricKey(size: .bits256))

    /// `u` and `s` of a signed path, read back as a browser's request would carry them.
    private func parts(of path: String) throws -> (url: String, signature: String) {
        let components = try #require(URLComponents(string: path))
        #expect(components.path == "/img")
        let items = components.queryItems ?? []
        #expect(items.map(\.name) == ["u", "s"])
        let url = try #require(items.first(where: { $0.name == "u" })?.value)
        let signature = try #require(items.first(where: { $0.name == "s" })?.value)
        return (url, signature)
    }

    @Test func aSignedPathVerifies() throws {
        let source = "https://images.example.org/photo.png"
        let path = try #require(signer.path(for: source))
        #expect(path.hasPrefix("/img?u="))
        let (url, signature) = try parts(of: path)
        #expect(url == source)
        #expect(signature.count == 64)
        #expect(signature.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(signer.isValid(url: url, signature: signature))
    }

    @Test func signingIsDeterministic() throws {
        let source = "http://images.example.org/a.jpg"
        #expect(signer.path(for: source) == signer.path(for: source))
    }

    @Test func aTamperedURLFails() throws {
        let (url, signature) = try parts(of: try #require(signer.path(for: "https://images.example.org/a.png")))
        #expect(!signer.isValid(url: url + "x", signature: signature))
        #expect(!signer.isValid(url: "https://images.example.org/b.png", signature: signature))
        #expect(!signer.isValid(url: "https://evil.example.net/a.png", signature: signature))
        #expect(!signer.isValid(url: "", signature: signature))
    }

    @Test func aTamperedSignatureFails() throws {
        let (url, signature) = try parts(of: try #require(signer.path(for: "https://images.example.org/a.png")))
        let first = signature.first == "0" ? "1" : "0"
        #expect(!signer.isValid(url: url, signature: first + signature.dropFirst()))
        let last = signature.last == "0" ? "1" : "0"
        #expect(!signer.isValid(url: url, signature: signature.dropLast() + last))
        #expect(!signer.isValid(url: url, signature: String(signature.dropLast(2))))
        #expect(!signer.isValid(url: url, signature: signature + "00"))
        #expect(!signer.isValid(url: url, signature: String(repeating: "z", count: 64)))
        #expect(!signer.isValid(url: url, signature: ""))
        #expect(!signer.isValid(url: url, signature: String(repeating: "0", count: 64)))
    }

    @Test func anotherInstallationsSignatureFails() throws {
        let other = ImageSigner(key: SymmetricKey(size: .bits256))
        let (url, signature) = try parts(of: try #require(other.path(for: "https://images.example.org/a.png")))
        #expect(other.isValid(url: url, signature: signature))
        #expect(!signer.isValid(url: url, signature: signature))
    }

    @Test(arguments: [
        "javascript:alert(1)", "data:image/png;base64,iVBORw0KGgo=", "/relative.png", "relative.png",
        "//cdn.example.org/a.png", "ftp://example.org/a.png", "file:///etc/passwd", "vbscript:x", "", "http://",
    ])
    func nonHTTPSourcesGiveNil(_ source: String) {
        #expect(signer.path(for: source) == nil)
    }

    @Test func aMissingSourceGivesNil() {
        #expect(signer.path(for: nil) == nil)
    }

    @Test(arguments: [
        "https://images.example.org/a+b.png", "https://images.example.org/a.png?x=1&y=2",
        "https://images.example.org/photo.png?w=600&h=400&fit=crop+max&sig=a%2Bb%26c",
        "https://images.example.org/p%20q.png?q=a=b;c&d=%26&e=%C3%A9", "https://images.example.org/a.png?x=1+1&y=2#frag",
    ])
    func plusAndAmpersandSurviveTheQueryString(_ source: String) throws {
        let expected = try #require(SafeLink.http(source))
        let path = try #require(signer.path(for: source))
        #expect(!path.dropFirst("/img?".count).contains("+"), "a literal + reads as a space in a query")
        let (url, signature) = try parts(of: path)
        #expect(url == expected)
        #expect(signer.isValid(url: url, signature: signature))
        #expect(path.components(separatedBy: "&").count == 2, "only the separator between u and s is a raw &")
    }
}
