import Foundation
import KioskCore
import KioskDemo
import Testing

@Suite struct JokeEndpointTests {
    @Test func withoutDeviceHeaderIs400WithSwittersReason() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/switter/api/joke")
            #expect(fetched.status == 400)
            #expect(
                fetched.text == #"{"error":true,"reason":"Could not load device information. Please supply the x-device-uuid header"}"#)
        }
    }

    @Test func oneDeviceHearsThirtyJokesWithoutARepeat() async throws {
        try await DemoHarness.run { demo async throws in
            var told: [String] = []
            for _ in 0..<30 {
                let fetched = try await demo.get("/switter/api/joke", headers: [("x-device-uuid", "device-a")])
                #expect(fetched.status == 200)
                #expect(fetched.header("content-type")?.hasPrefix("application/json") == true)
                told.append(try JokeParser.parse(Data(fetched.body)).content)
            }
            #expect(Set(told).count == 30)
            #expect(told.allSatisfy { !$0.isEmpty })
            // Another device gets its own round.
            let other = try await demo.get("/switter/api/joke", headers: [("x-device-uuid", "device-b")])
            #expect(other.status == 200)
        }
    }
}
