import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// Episodes: where each account is in them, saved by the player (`POST .../position`, behind
/// `SameOriginMiddleware` as every action), and "Listen", the episodes in progress and unplayed.
struct ListenRoutes: Sendable {
    let reader: Reader
    let places: EpisodePlaces
    let drawings: EntryDrawings
    let live: LiveBroadcaster
    /// Signs the media proxy's addresses of the episodes a device keeps; nil without a proxy.
    var signer: ImageSigner?

    private struct Place: Decodable {
        var seconds: Double
        var duration: Double?
        var playing: Bool?
        var finished: Bool?
        /// The page that saved it (its own random id).
        var client: String?
        /// When the place was taken (seconds since 1970), for one sent late (queued offline).
        var at: Double?
    }

    struct Kept: Encodable {
        var page: String
        var media: String
    }

    struct KeptList: Encodable {
        var episodes: [Kept]
    }

    struct Saved: Encodable {
        var seconds: Double
        var finished: Bool
        var device: String
    }

    func register(on router: Router<KioskRequestContext>) {
        router.post("reader/entry/:source/:key/position") { request, context in
            let source = SourceID(try ReaderRoutes.parameter("source", context))
            let key = try ReaderRoutes.parameter("key", context)
            let form = try await FormBody.decode(Place.self, from: request, limit: 4 << 10)
            guard try await reader.subscription(source, user: context.user) != nil,
                let entry = try await places.entry(source: source, key: key, user: context.user)
            else { throw HTTPError(.notFound) }
            let saved: PlaybackPosition
            do throws(ReaderError) {
                saved = try await places.save(
                    entryID: entry.id, seconds: form.seconds, duration: form.duration, playing: form.playing ?? false,
                    finished: form.finished ?? false, device: DeviceName.from(userAgent: request.headers[.userAgent]),
                    client: form.client ?? "", at: form.at.flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil },
                    user: context.user)
            } catch {
                if case .storage = error { throw HTTPError(.serviceUnavailable, message: error.message) }
                throw HTTPError(.badRequest, message: error.message)
            }
            return try JSONResponse(Saved(seconds: saved.seconds, finished: saved.isFinished, device: saved.device)).response
        }
        // "Keep the next 3 unplayed" (player.js): a feed's newest unread episodes, each with its
        // page and its file through Kiosk, for a device to keep for offline.
        router.get("reader/feed/:id/episodes.json") { _, context in
            guard let signer, let raw = context.parameters.get("id") else { throw HTTPError(.notFound) }
            let id = SourceID(raw)
            guard let subscription = try await reader.subscription(id, user: context.user) else { throw HTTPError(.notFound) }
            let episodes = try await places.unplayed(of: id, user: context.user).compactMap { stored -> Kept? in
                guard let file = stored.entry.playableMedia,
                    let media = signer.mediaPath(
                        for: URLResolution.resolve(file.url, against: subscription.url.absoluteString))
                else { return nil }
                return Kept(page: ReaderLinks.entry(id, key: stored.key), media: media)
            }
            var response = try JSONResponse(KeptList(episodes: episodes)).response
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.get("reader/listen") { _, context in
            let subscriptions = try await reader.subscriptions(user: context.user)
            var names: [SourceID: String] = [:]
            for subscription in subscriptions { names[subscription.id] = subscription.displayName }
            return ListenPage(
                items: try await places.listen(user: context.user), names: names, drawings: drawings,
                folders: try await reader.folders(user: context.user), sequence: await live.snapshot().sequence
            ).page.response(for: context)
        }
    }
}
