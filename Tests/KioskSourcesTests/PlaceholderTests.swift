import Foundation
import Testing
@testable import KioskSources

@Suite struct FetchedBodyTests {
    @Test func charsetComesFromTheContentType() throws {
        let url = try #require(URL(string: "http://127.0.0.1/"))
        #expect(FetchedBody(bytes: [], contentType: "text/xml; charset=\"ISO-8859-1\"", finalURL: url).charset == "ISO-8859-1")
        #expect(FetchedBody(bytes: [], contentType: "application/json", finalURL: url).charset == nil)
    }
}
