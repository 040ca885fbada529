import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import KioskWeb

/// `POST /jokes/next` over the sample server's joke API.
@Suite struct JokeRouteTests {
    struct Answer: Decodable {
        var joke: String?
        var error: String?
    }

    @Test func nextAnswersAJoke() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let response = try await client.execute(uri: "/jokes/next", method: .post)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
                let answer = try JSONDecoder().decode(Answer.self, from: response.data)
                let joke = try #require(answer.joke)
                #expect(!joke.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
                #expect(answer.error == nil)
                SecurityHeadersRouteTests.expectSecurityHeaders(response, "/jokes/next")
            }
        }
    }

    @Test func nextIsPostOnly() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let response = try await client.get("/jokes/next")
                #expect(response.status != .ok)
            }
        }
    }
}
