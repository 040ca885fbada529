import Foundation
import HTTPTypes
import Hummingbird
import KioskAccounts

/// How Kiosk knows its owner while no account exists. Loopback alone cannot tell the owner's
/// browser from a reverse proxy on the same machine (nginx's default `proxy_pass`, haproxy
/// without `forwardfor` add no header and send the backend's own Host): trusting it handed the
/// owner's reader to the network. So a real installation asks the owner to prove it, as Jupyter
/// does: the start-up log prints a link with a secret token, and opening it leaves a cookie.
public enum OwnerAccess: Sendable, Equatable {
    /// Any request from loopback is the owner's: demo mode only, whose data is sample data (its
    /// start-up line says so), so that `scripts/demo.sh` stays one command.
    case loopback
    /// The owner opens `/owner?token=TOKEN` (this process's random token, printed at start); it
    /// leaves the owner's cookie, which admits that browser from then on, across restarts.
    case link(token: String)

    /// A fresh link, with a new random token.
    public static func newLink() -> OwnerAccess { .link(token: Secret.token()) }

    /// The path that admits the owner's browser, for the start-up line; nil for `.loopback`.
    public var path: String? {
        guard case .link(let token) = self else { return nil }
        return "/owner?token=" + token
    }
}

/// The owner's cookie and the link that sets it.
struct OwnerPass: Sendable {
    static let cookieName = "kiosk_owner"
    static let path = "/owner"

    let access: OwnerAccess
    /// The cookie's value: derived from the installation's signing key, so it lasts across
    /// restarts and needs no file of its own.
    let cookieValue: String

    init(access: OwnerAccess, signer: ImageSigner) {
        self.access = access
        cookieValue = signer.signature("kiosk-owner-pass:v1")
    }

    /// What to do with a request while no account exists and it came from loopback: let it in
    /// (nil), or answer it here.
    func answer(_ request: Request) -> Response? {
        guard case .link(let token) = access else { return nil }
        if let sent = request.cookies[Self.cookieName]?.value, Secret.matches(sent, cookieValue) { return nil }
        if request.uri.path == Self.path, let given = request.uri.queryParameters.get("token"),
            Secret.matches(String(given), token)
        {
            let cookie = "\(Self.cookieName)=\(cookieValue); Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax"
            return Response(
                status: .seeOther, headers: [.location: "/", .setCookie: cookie, .cacheControl: "no-store"])
        }
        let html = request.method == .get && (request.headers[.accept]?.contains("text/html") ?? true)
        guard html else {
            return Response(
                status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: "Open the link Kiosk printed when it started.\n")))
        }
        var response = HTMLResponse(OwnerLinkPage().page.render(), status: .unauthorized).response
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
