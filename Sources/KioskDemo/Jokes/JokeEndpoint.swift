import Hummingbird
import KioskCore

/// `GET /switter/api/joke`: needs an `x-device-uuid` header, answers `{"content": "..."}`.
struct JokeEndpoint: Sendable {
    let teller: JokeTeller
    let resources: DemoResources

    func respond(headers: HTTPFields) async -> DemoReply {
        guard let device = HTTPHeader.value("x-device-uuid", in: headers), !device.isEmpty else {
            return .json(resources.jokeHeaderMissing, status: .badRequest)
        }
        guard let joke = await teller.nextJoke(for: device) else {
            return .json(resources.jokeServerError, status: .internalServerError)
        }
        return .json(Array(JSONText.object(["content": JSONText.string(joke)]).utf8))
    }
}
