import Foundation
import Hummingbird
import KioskReader

/// Saving a search (from Discover's saved-news results) and deleting one (from its list).
struct SavedSearchRoutes: Sendable {
    let searches: SavedSearches
    /// Told of each save and delete, so the user's other open pages redraw their reading lists.
    let changes: ReaderChanges

    private struct Save: Decodable {
        var q: String
        var name: String?
    }

    func register(on router: Router<KioskRequestContext>) {
        router.post("reader/searches") { request, context in
            let form = try await FormBody.decode(Save.self, from: request)
            do {
                let saved = try await searches.save(form.q, name: form.name, user: context.user)
                await changes.publish(.subscriptions(user: context.user))
                return FormBody.redirect(ReaderLinks.search(saved.id))
            } catch let error as ReaderError {
                let page = MessagePage(kind: "error", title: "Search not saved", message: error.message, tab: .reader)
                return HTMLResponse(page.page.render(), status: .badRequest).response
            }
        }
        router.post("reader/search/:id/delete") { _, context in
            guard let id = context.parameters.get("id", as: Int64.self), try await searches.delete(id, user: context.user)
            else { throw HTTPError(.notFound) }
            await changes.publish(.subscriptions(user: context.user))
            return FormBody.redirect(ReaderLinks.home)
        }
    }
}
