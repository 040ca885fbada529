import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct JokeParserTests {
    @Test func jokeFixtureReadsItsContent() throws {
        #expect(try JokeParser.parse(Fixture.data("switter_joke.json")) == Joke(content: "This is a joke"))
    }

    @Test func missingHeaderErrorSurfacesTheServersReasonExactly() throws {
        let reason = "Could not load device information. Please supply the x-device-uuid header"
        let error = Fixture.seedError { try JokeParser.parse(try Fixture.data("switter_error_400.json")) }
        #expect(error == .joke(JokeError(reason: reason)))
        #expect(error?.apiMessage == reason)
        #expect(error?.description == reason)
        #expect(error?.localizedDescription == reason)
    }

    @Test func noJokesLeftErrorSurfacesTheServersReasonExactly() throws {
        let error = Fixture.seedError { try JokeParser.parse(try Fixture.data("switter_error_500.json")) }
        #expect(error == .joke(JokeError(reason: "No jokes found on the server")))
        #expect(JokeError(reason: "No jokes found on the server").description == "No jokes found on the server")
    }

    @Test func errorFlagWithoutAReasonStillExplainsItself() {
        #expect(
            Fixture.seedError { try JokeParser.parse(Data(#"{"error": true}"#.utf8)) }
                == .joke(JokeError(reason: "The joke server reported an error"))
        )
        // A reason with no content is an error even when the flag is missing or mistyped.
        #expect(
            Fixture.seedError { try JokeParser.parse(Data(#"{"error": "yes", "reason": "Down"}"#.utf8)) }
                == .joke(JokeError(reason: "Down"))
        )
    }

    @Test func jokeIsKeptWhenTheErrorFlagIsFalse() throws {
        #expect(try JokeParser.parse(Data(#"{"error": false, "content": "Knock knock"}"#.utf8)) == Joke(content: "Knock knock"))
    }

    @Test func badInputIsATypedError() {
        let noJoke = SeedError.unexpectedShape("expected a joke, an object with a non-empty \"content\"")
        #expect(Fixture.seedError { try JokeParser.parse(Data(#"{"content": 42}"#.utf8)) } == noJoke)
        #expect(Fixture.seedError { try JokeParser.parse(Data(#"{"content": " "}"#.utf8)) } == noJoke)
        #expect(Fixture.seedError { try JokeParser.parse(Data("{}".utf8)) } == noJoke)
        #expect(
            Fixture.seedError { try JokeParser.parse(Data(#"["This is a joke"]"#.utf8)) }
                == .unexpectedShape("expected a joke, an object with \"content\"")
        )
        #expect(Fixture.seedError { try JokeParser.parse(Data()) } == .notJSON("the response is empty"))
        #expect(Fixture.seedError { try JokeParser.parse(Data(#"{"content":"This is a jo"#.utf8)) } == .notJSON("it is malformed or cut short"))
        #expect(Fixture.seedError { try JokeParser.parse(Data("<h1>Not Found</h1>".utf8)) } == .notJSON("it is an HTML or XML page"))
    }
}
