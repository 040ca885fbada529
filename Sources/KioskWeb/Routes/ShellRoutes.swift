import Foundation
import Hummingbird

/// Home, the static files, the PWA's manifest and service worker, the offline page, health.
struct ShellRoutes: Sendable {
    let shared: RouteContext

    func register(on router: Router<KioskRequestContext>) {
        let assets = shared.dependencies.assets
        router.get("/") { _, _ in
            let state = await shared.live.snapshot()
            return HomePage(
                ownerName: shared.config.ownerName, lastOpened: state.lastOpened, now: Date(), sequence: state.sequence
            ).page.response
        }
        router.get("healthz") { _, _ in "ok\n" }
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
