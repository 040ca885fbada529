import Foundation
import Hummingbird
import KioskModel
import KioskReader
import KioskStore

/// The rules' pages and actions: the list, the form with its live preview, pausing, moving,
/// deleting, and applying a rule to the entries already there (asked first, undoable).
struct RuleRoutes: Sendable {
    let rules: Rules
    let reader: Reader

    /// A rule as the form posts it: the checkboxes are sent ("on") when ticked, absent when not.
    private struct Form: Decodable {
        var name: String?
        var query: String?
        var scope: String?
        var read: String?
        var star: String?
        var hide: String?
        var notify: String?
        /// The label to add ("" or absent: none).
        var label: String?
        var paused: String?
    }
    private struct Pause: Decodable { var paused: Bool }
    private struct Move: Decodable { var direction: String }
    private struct Undo: Decodable { var token: String }

    /// What the script's preview asks for and gets.
    struct PreviewResult: Encodable {
        /// The "Matches 37 of your 4,210 entries" line, and the list of the newest, as HTML.
        var count: String
        var list: String
        var matches: Int?
        var error: String?
    }

    func register(on router: Router<KioskRequestContext>) {
        router.get("reader/rules") { request, context in
            try await listPage(context, message: request.uri.queryParameters.get("done").map(Self.doneSentence)).response(for: context)
        }
        router.get("reader/rules/new") { request, context in
            try await formPage(id: nil, draft: Self.draft(request), context: context)
        }
        router.get("reader/rules/preview") { request, context in
            let subscriptions = try await reader.subscriptions(user: context.user)
            let (preview, problem) = try await previewing(Self.draft(request), user: context.user, subscriptions: subscriptions)
            let view = RulePreviewView(preview: preview, subscriptions: subscriptions)
            return try JSONResponse(
                PreviewResult(count: view.count.render(), list: view.list.render(), matches: preview?.matches.count, error: problem)
            ).response
        }
        router.get("reader/rules.json") { _, context in
            let data = try await rules.export(user: context.user, subscriptions: try await reader.subscriptions(user: context.user))
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/json; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"kiosk-rules.json\"", .cacheControl: "no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.post("reader/rules/import") { request, context in
            let folders = try await reader.folders(user: context.user)
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: RuleFile.largest + 64 << 10)
            } catch {
                return OPMLPage(folders: folders, rulesError: "That rules file is too large (over 1 MB).").page.response(for: context)
            }
            let bytes = Array(buffer: body)
            let file = MultipartFile.first(in: bytes, contentType: request.headers[.contentType] ?? "") ?? bytes
            do {
                let report = try await rules.importFile(
                    file, user: context.user, subscriptions: try await reader.subscriptions(user: context.user))
                return OPMLPage(folders: folders, rulesReport: report).page.response(for: context)
            } catch let error as ReaderError {
                return OPMLPage(folders: folders, rulesError: error.message).page.response(for: context)
            }
        }
        router.post("reader/rules") { request, context in
            let draft = try await Self.posted(request)
            do {
                _ = try await rules.add(draft, user: context.user)
                return FormBody.redirect(ReaderLinks.rules + "?done=added")
            } catch let error as ReaderError {
                return try await formPage(id: nil, draft: draft, error: error.message, context: context, status: .badRequest)
            }
        }
        router.get("reader/rules/:id/edit") { request, context in
            let rule = try await rule(context)
            return try await formPage(id: rule.id, draft: Self.draft(request) ?? rule.draft, context: context)
        }
        router.post("reader/rules/:id/edit") { request, context in
            let rule = try await rule(context)
            let draft = try await Self.posted(request)
            do {
                try await rules.update(rule.id, to: draft, user: context.user)
                return FormBody.redirect(ReaderLinks.rules + "?done=saved")
            } catch let error as ReaderError {
                return try await formPage(id: rule.id, draft: draft, error: error.message, context: context, status: .badRequest)
            }
        }
        router.post("reader/rules/:id/pause") { request, context in
            let rule = try await rule(context)
            let form = try await FormBody.decode(Pause.self, from: request)
            try await rules.setPaused(rule.id, form.paused, user: context.user)
            return FormBody.redirect(ReaderLinks.rules + (form.paused ? "?done=paused" : "?done=resumed"))
        }
        router.post("reader/rules/:id/move") { request, context in
            let rule = try await rule(context)
            let form = try await FormBody.decode(Move.self, from: request)
            try await rules.move(rule.id, earlier: form.direction == "up", user: context.user)
            return FormBody.redirect(ReaderLinks.rules)
        }
        router.post("reader/rules/:id/delete") { _, context in
            let rule = try await rule(context)
            try await rules.delete(rule.id, user: context.user)
            return FormBody.redirect(ReaderLinks.rules + "?done=deleted")
        }
        router.get("reader/rules/:id/apply") { _, context in
            let rule = try await rule(context)
            let subscriptions = try await reader.subscriptions(user: context.user)
            let application = try await rules.application(of: rule, user: context.user, subscriptions: subscriptions)
            return ApplyRulePage(rule: rule, application: application, folders: try await reader.folders(user: context.user))
                .page.response(for: context)
        }
        router.post("reader/rules/:id/apply") { _, context in
            let rule = try await rule(context)
            let subscriptions = try await reader.subscriptions(user: context.user)
            let application = try await rules.application(of: rule, user: context.user, subscriptions: subscriptions)
            let done = try await reader.apply(
                read: application.read, starred: application.starred, hidden: application.hidden,
                labelled: application.labelled, user: context.user)
            let sentence = "“\(rule.draft.name)” changed \(done.count) \(done.count == 1 ? "entry" : "entries")."
            return try await listPage(context, message: sentence, undo: (rule.id, done.undo)).response(for: context)
        }
        router.post("reader/rules/:id/undo") { request, context in
            let form = try await FormBody.decode(Undo.self, from: request)
            do {
                try await reader.undo(form.token, user: context.user)
                return FormBody.redirect(ReaderLinks.rules + "?done=undone")
            } catch let error as ReaderError {
                return try await listPage(context, message: error.message).response(for: context)
            }
        }
    }

    /// What `draft`'s query matches now, or why it cannot be read (nothing for an empty query).
    private func previewing(_ draft: RuleDraft?, user: UserID, subscriptions: [Subscription]) async throws
        -> (Rules.Preview?, String?)
    {
        guard let draft, !draft.query.trimmingCharacters(in: .whitespaces).isEmpty else { return (nil, nil) }
        do {
            return (try await rules.preview(draft.query, scope: draft.scope, user: user, subscriptions: subscriptions), nil)
        } catch let error as ReaderError {
            return (nil, error.message)
        }
    }

    private func rule(_ context: KioskRequestContext) async throws -> Rule {
        guard let id = context.parameters.get("id", as: Int64.self), let rule = try await rules.rule(id, user: context.user)
        else { throw HTTPError(.notFound) }
        return rule
    }

    private func listPage(_ context: KioskRequestContext, message: String?, undo: (rule: Int64, token: String)? = nil)
        async throws -> Page
    {
        RulesPage(
            rules: try await rules.list(user: context.user), subscriptions: try await reader.subscriptions(user: context.user),
            folders: try await reader.folders(user: context.user), message: message, undo: undo
        ).page
    }

    private func formPage(
        id: Int64?, draft: RuleDraft?, error: String? = nil, context: KioskRequestContext, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let subscriptions = try await reader.subscriptions(user: context.user)
        let shown = draft ?? RuleDraft(name: "", query: "", actions: [.markRead])
        let (preview, failure) = try await previewing(shown, user: context.user, subscriptions: subscriptions)
        let problem = error ?? failure
        var response = RuleFormPage(
            ruleID: id, draft: shown, subscriptions: subscriptions, folders: try await reader.folders(user: context.user),
            preview: preview, error: problem, knownLabels: try await reader.labels(user: context.user).map(\.name)
        ).page.response(for: context)
        response.status = status
        return response
    }

    static func doneSentence(_ done: String) -> String {
        switch done {
        case "added": "Rule added: it sorts every new entry from now on."
        case "saved": "Rule saved."
        case "paused": "Rule paused."
        case "resumed": "Rule resumed."
        case "deleted": "Rule deleted."
        case "undone": "Undone."
        default: "Done."
        }
    }

    /// A draft from the form's fields in a URL (the preview, and the form without script); nil
    /// when there are none.
    static func draft(_ request: Request) -> RuleDraft? {
        // Read as a form: a browser's GET form writes a space as "+".
        guard let query = request.uri.query, let form = try? URLEncodedFormDecoder().decode(Form.self, from: query),
            let text = form.query
        else { return nil }
        return draft(
            name: form.name, query: text, scope: form.scope, read: form.read != nil, star: form.star != nil,
            hide: form.hide != nil, notify: form.notify != nil, label: form.label, paused: form.paused != nil)
    }

    private static func posted(_ request: Request) async throws -> RuleDraft {
        let form = try await FormBody.decode(Form.self, from: request)
        return draft(
            name: form.name, query: form.query ?? "", scope: form.scope, read: form.read != nil, star: form.star != nil,
            hide: form.hide != nil, notify: form.notify != nil, label: form.label, paused: form.paused != nil)
    }

    private static func draft(
        name: String?, query: String, scope: String?, read: Bool, star: Bool, hide: Bool, notify: Bool, label: String?,
        paused: Bool
    ) -> RuleDraft {
        var actions: Set<RuleAction> = []
        if read { actions.insert(.markRead) }
        if star { actions.insert(.star) }
        if hide { actions.insert(.hide) }
        if notify { actions.insert(.notify) }
        let label = label.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        return RuleDraft(
            name: name ?? "", query: query, scope: Self.scope(scope), actions: actions, label: label, isPaused: paused)
    }

    /// The scope select's value: `all`, `folder:<name>` or `feed:<id>`.
    static func scope(_ value: String?) -> RuleScope {
        guard let value else { return .all }
        if value.hasPrefix("folder:") { return .folder(String(value.dropFirst("folder:".count))) }
        if value.hasPrefix("feed:") { return .feed(SourceID(String(value.dropFirst("feed:".count)))) }
        return .all
    }
}
