import Hummingbird
import ServiceLifecycle

/// `/events`: the server-sent event stream every page opens (one EventSource per page).
///
/// It resumes after `Last-Event-ID` (a reconnecting browser) or `?since=` (the sequence the page
/// was drawn at). The subscription ends, and is cleaned up, whichever way the connection does:
/// the client leaving (Hummingbird cancels the writer and throws), a slow client being dropped,
/// or the server shutting down.
struct EventsRoute: Sendable {
    let live: LiveBroadcaster

    func register(on router: Router<KioskRequestContext>) {
        router.get("events") { request, context in
            // 0 is no position (event numbers start at the run's start time): no catch-up.
            let last =
                (request.headers[.lastEventID].flatMap { UInt64($0) }
                ?? request.uri.queryParameters.get("since").flatMap { UInt64($0) }).flatMap { $0 == 0 ? nil : $0 }
            let (id, frames) = await live.subscribe(after: last, user: context.user, session: context.csrf)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: .init { writer in
                    do {
                        try await request.body.consumeWithCancellationOnInboundClose { _ in
                            // Shutting down ends the stream, so open pages never hold the server up.
                            try await withGracefulShutdownHandler {
                                for await frame in frames {
                                    try await writer.write(frame.bytes)
                                }
                            } onGracefulShutdown: {
                                Task { await live.unsubscribe(id) }
                            }
                        }
                    } catch {
                        await live.unsubscribe(id)
                        throw error
                    }
                    await live.unsubscribe(id)
                    try await writer.finish(nil)
                })
        }
    }
}
