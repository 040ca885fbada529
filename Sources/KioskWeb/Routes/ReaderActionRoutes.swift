import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// What changes the reader: subscribe, settings, unsubscribe, OPML import, read, star and label state.
/// All POSTs (behind `SameOriginMiddleware`); the script sends them with `Accept:
/// application/json` and gets JSON, a plain form gets a page or a redirect.
struct ReaderActionRoutes: Sendable {
    let reader: Reader
    /// A feed's "Notify on new entries" is a rule of its own.
    let rules: Rules
    let articlePasses: ArticlePrefetcher.Wake
    /// An OPML upload at most (the reader itself refuses files over 4 MiB with a clear message).
    static let uploadLimit = 6 << 20

    private struct Find: Decodable { var address: String }
    private struct Subscribe: Decodable {
        var url: String
        var feedTitle: String?
        var siteURL: String?
        var folder: String?
        var title: String?
    }
    private struct Settings: Decodable {
        var title: String?
        var folder: String?
        var interval: Int?
        /// The checkboxes: sent ("on") when ticked, absent when not.
        var fullArticles: String?
        var notify: String?
        /// Whether Notify on new entries was ticked when the page was drawn: only a change is
        /// acted on, so a rename never deletes a paused notify rule.
        var notifyWas: String?
    }
    private struct Mark: Decodable {
        var ids: String
        var read: Bool?
        var starred: Bool?
        var back: String?
    }
    private struct MarkAll: Decodable {
        var scope: String
        var upTo: Int64
        var back: String?
    }
    private struct Undo: Decodable { var token: String }
    private struct Hiding: Decodable {
        var ids: String
        var hidden: Bool?
        var back: String?
    }
    private struct Labelling: Decodable {
        var ids: String
        var label: String
        /// "false" takes the label off; anything else (or nothing) puts it on.
        var on: Bool?
        var back: String?
    }

    struct LabelResult: Encodable {
        var changed: [Int64]
        var label: String
    }

    struct MarkAllResult: Encodable {
        var count: Int
        var undo: String
    }

    func register(on router: Router<KioskRequestContext>) {
        router.post("reader/add") { request, context in
            let form = try await FormBody.decode(Find.self, from: request)
            let folders = try await reader.folders(user: context.user)
            do throws(FeedFinderError) {
                let found = try await reader.find(form.address)
                return AddFeedPage(address: form.address, found: found.feeds, folders: folders).page.response(for: context)
            } catch {
                return AddFeedPage(address: form.address, error: error.message, folders: folders).page.response(for: context)
            }
        }
        router.post("reader/subscribe") { request, context in
            let form = try await FormBody.decode(Subscribe.self, from: request)
            guard let url = URL(string: form.url) else { throw HTTPError(.badRequest, message: "Not a feed address.") }
            do throws(ReaderError) {
                let subscription = try await reader.subscribe(
                    url: url, feedTitle: Self.nonEmpty(form.feedTitle), siteURL: Self.nonEmpty(form.siteURL), title: form.title,
                    folder: form.folder, user: context.user)
                return FormBody.redirect(ReaderLinks.feed(subscription.id))
            } catch {
                if case .alreadySubscribed(let id) = error { return FormBody.redirect(ReaderLinks.feed(id)) }
                return AddFeedPage(address: form.url, error: error.message, folders: try await reader.folders(user: context.user)).page.response(for: context)
            }
        }
        router.post("reader/feed/:id/settings") { request, context in
            let id = SourceID(try ReaderRoutes.parameter("id", context))
            let form = try await FormBody.decode(Settings.self, from: request)
            guard let subscription = try await reader.subscription(id, user: context.user) else { throw HTTPError(.notFound) }
            do {
                try await reader.update(
                    id, title: form.title ?? "", folder: form.folder ?? "",
                    interval: subscription.isBuiltIn ? nil : form.interval.map { .seconds($0) },
                    fullArticles: form.fullArticles != nil, user: context.user)
                // Its newest entries' articles now, not at the next minute's pass.
                if form.fullArticles != nil, !subscription.fullArticles { articlePasses.now() }
                if (form.notify != nil) != (form.notifyWas == "on") {
                    try await rules.setNotifiesOfEvery(
                        id, named: form.title.flatMap { $0.isEmpty ? nil : $0 } ?? subscription.displayName, form.notify != nil,
                        user: context.user)
                }
            } catch let error as ReaderError {
                return FeedSettingsPage(subscription: subscription, folders: try await reader.folders(user: context.user), error: error.message)
                    .page.response(for: context)
            }
            return FormBody.redirect(ReaderLinks.settings(id) + "?saved=1")
        }
        router.post("reader/feed/:id/unsubscribe") { _, context in
            let id = SourceID(try ReaderRoutes.parameter("id", context))
            do throws(ReaderError) {
                try await reader.unsubscribe(id, user: context.user)
            } catch {
                if case .unknownFeed = error { throw HTTPError(.notFound) }
                throw HTTPError(.conflict, message: error.message)
            }
            return FormBody.redirect(ReaderLinks.home)
        }
        router.post("reader/import") { request, context in
            let body = Array(buffer: try await Self.collect(request))
            let contentType = request.headers[.contentType] ?? ""
            let bytes = contentType.lowercased().hasPrefix("multipart/form-data")
                ? MultipartFile.first(in: body, contentType: contentType) : body
            let folders = try await reader.folders(user: context.user)
            guard let bytes, !bytes.isEmpty else {
                return OPMLPage(folders: folders, error: "Choose an OPML file to import.").page.response(for: context)
            }
            do throws(ReaderError) {
                let report = try await reader.importOPML(bytes, user: context.user)
                return OPMLPage(folders: try await reader.folders(user: context.user), report: report).page.response(for: context)
            } catch {
                return OPMLPage(folders: folders, error: error.message).page.response(for: context)
            }
        }
        router.post("reader/read") { request, context in
            let form = try await FormBody.decode(Mark.self, from: request)
            try await perform { try await reader.setRead(form.read ?? true, ids: Self.ids(form.ids), user: context.user) }
            return FormBody.wantsJSON(request) ? try JSONResponse(["ok": true]).response : FormBody.redirect(FormBody.back(form.back))
        }
        router.post("reader/star") { request, context in
            let form = try await FormBody.decode(Mark.self, from: request)
            try await perform { try await reader.setStarred(form.starred ?? true, ids: Self.ids(form.ids), user: context.user) }
            return FormBody.wantsJSON(request) ? try JSONResponse(["ok": true]).response : FormBody.redirect(FormBody.back(form.back))
        }
        router.post("reader/hide") { request, context in
            let form = try await FormBody.decode(Hiding.self, from: request)
            try await perform { try await reader.setHidden(form.hidden ?? true, ids: Self.ids(form.ids), user: context.user) }
            return FormBody.wantsJSON(request) ? try JSONResponse(["ok": true]).response : FormBody.redirect(FormBody.back(form.back))
        }
        router.post("reader/label") { request, context in
            let form = try await FormBody.decode(Labelling.self, from: request)
            let changed = try await perform {
                try await reader.setLabel(form.label, form.on ?? true, ids: Self.ids(form.ids), user: context.user)
            }
            if FormBody.wantsJSON(request) {
                return try JSONResponse(LabelResult(changed: changed, label: LabelName.normalized(form.label) ?? form.label)).response
            }
            return FormBody.redirect(FormBody.back(form.back))
        }
        router.post("reader/mark-all") { request, context in
            let form = try await FormBody.decode(MarkAll.self, from: request)
            guard let scope = try await Self.scope(form.scope, reader: reader, user: context.user) else { throw HTTPError(.notFound) }
            let result = try await perform { try await reader.markAllRead(scope, upTo: form.upTo, user: context.user) }
            if FormBody.wantsJSON(request) {
                return try JSONResponse(MarkAllResult(count: result.count, undo: result.undo)).response
            }
            return FormBody.redirect(FormBody.back(form.back))
        }
        router.post("reader/undo") { request, context in
            let form = try await FormBody.decode(Undo.self, from: request)
            try await perform { try await reader.undo(form.token, user: context.user) }
            return try JSONResponse(["ok": true]).response
        }
    }

    /// Runs a reader action; its error becomes a 409 with the reader's message.
    @discardableResult
    private func perform<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ReaderError {
            throw HTTPError(.conflict, message: error.message)
        }
    }

    private static func collect(_ request: Request) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: uploadLimit)
        } catch {
            throw HTTPError(.contentTooLarge, message: "That file is too large to import (over 6 MB).")
        }
    }

    /// "12,13,14": at most 1,000 entry ids.
    static func ids(_ text: String) -> [Int64] {
        Array(text.split(separator: ",").prefix(1_000).compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) })
    }

    /// A scope as list pages write it: `all`, `starred`, `folder:<name>`, `feed:<id>`, `label:<name>`.
    static func scope(_ text: String, reader: Reader, user: UserID) async throws -> ReadingScope? {
        switch text {
        case "all": return .all
        case "starred": return .starred
        default:
            if text.hasPrefix("folder:") {
                let name = String(text.dropFirst("folder:".count))
                return try await reader.folders(user: user).contains(name) ? .folder(name) : nil
            }
            if text.hasPrefix("label:") {
                let name = String(text.dropFirst("label:".count))
                return try await reader.labels(user: user).contains { $0.name == name } ? .label(name) : nil
            }
            if text.hasPrefix("feed:") {
                let id = SourceID(String(text.dropFirst("feed:".count)))
                return try await reader.subscription(id, user: user) == nil ? nil : .feed(id)
            }
            return nil
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }
}
