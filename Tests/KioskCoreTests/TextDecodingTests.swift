import Testing
@testable import KioskCore

@Suite struct TextDecodingTests {
    @Test func invalidUTF8FallsBackToWindows1252() {
        #expect(TextDecoding.string([0x41, 0xC9, 0x20, 0x80]) == "AÉ €")
    }

    @Test func byteOrderMarkWinsOverDeclaration() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>é</a>".utf8)
        #expect(TextDecoding.string(bytes).hasSuffix("<a>é</a>"))
    }

    @Test func declaredLatin1IsTranscoded() {
        let bytes = Array("<?xml version='1.0' encoding='ISO-8859-1'?><a>".utf8) + [0xE9] + Array("</a>".utf8)
        #expect(TextDecoding.string(bytes).contains("<a>é</a>"))
    }

    @Test func httpHintOverridesDeclaration() {
        let bytes = Array("<?xml version='1.0' encoding='utf-8'?><a>".utf8) + [0xE9] + Array("</a>".utf8)
        #expect(TextDecoding.string(bytes, charsetHint: "iso-8859-1").contains("<a>é</a>"))
    }

    @Test func utf16WithoutBOMIsDetectedFromTheFirstCharacter() {
        let bytes = Array("<a>ü</a>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(TextDecoding.string(bytes) == "<a>ü</a>")
    }
}
