import Foundation
import Hummingbird

/// Home, the static files, the PWA's manifest and service worker, the offline page, health.
struct ShellRoutes: Sendable {
    let assets: Assets
    let live: LiveBroadcaster
    let ownerName: String
    let notReady: @Sendable () async -> String?

    func register(on router: Router<KioskRequestContext>) {
        router.get("/") { _, context in
            let sequence = await live.snapshot().sequence
            return HomePage(
                ownerName: context.account.map { $0.homeName ?? $0.name } ?? ownerName,
                lastOpened: await live.lastOpened(for: context.user), now: Date(), sequence: sequence,
                signedInAs: context.account?.name
            ).page.response(for: context)
        }
        // Alive: the process answers. Ready: it can serve (its database answers), for a load balancer.
        router.get("healthz") { _, _ in "ok\n" }
        router.get("readyz") { _, _ in
            if let reason = await notReady() {
                return Response(
                    status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(string: "not ready: \(reason)\n")))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: "ready\n")))
        }
        router.get("offline") { _, _ in MessagePage.offline.page.response }
        router.get("static/**") { request, context in
            let path = context.parameters.getCatchAll().joined(separator: "/")
            guard let response = assets.response(for: path, request: request) else { throw HTTPError(.notFound) }
            return response
        }
        router.get("sw.js") { request, _ in
            guard let response = assets.response(for: "sw.js", request: request) else { throw HTTPError(.notFound) }
            return response
        }
        router.get("manifest.webmanifest") { request, _ in
            guard let response = assets.response(for: "manifest.webmanifest", request: request) else {
                throw HTTPError(.notFound)
            }
            return response
        }
    }
}
