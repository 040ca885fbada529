import Foundation
import HTTPTypes
import Hummingbird
import KioskSources
import Logging

/// `/img?u=<url>&s=<signature>`: images from sources, through the image pipeline, only for URLs
/// Kiosk's own pages signed. Pages never load a third-party image directly.
struct ImageRoute: Sendable {
    let signer: ImageSigner
    let images: ImagePipeline
    let logger: Logger

    func register(on router: Router<KioskRequestContext>) {
        router.get("img") { request, _ in
            guard let link = request.uri.queryParameters.get("u"), let signature = request.uri.queryParameters.get("s"),
                signer.isValid(url: link, signature: signature), let url = URL(string: link)
            else { throw HTTPError(.forbidden) }
            let etag = "\"\(signature.prefix(32))\""
            if request.headers[.ifNoneMatch] == etag {
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: Self.cacheControl])
            }
            do {
                let image = try await images.image(for: url)
                return Response(
                    status: .ok,
                    headers: [.contentType: image.contentType, .cacheControl: Self.cacheControl, .eTag: etag],
                    body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
            } catch {
                // The page shows a neat placeholder in the image's box (app.js recognises this
                // 1×1 image) rather than a broken-image icon and an error in the console. Why is
                // logged, never told: it would tell a feed's author what the server can reach.
                logger.debug("image unavailable", metadata: ["url": "\(link)", "error": "\(error)"])
                return Response(
                    status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(bytes: Self.placeholder)))
            }
        }
    }

    /// A source's image at a given URL rarely changes; a day in the browser, revalidated after.
    static let cacheControl = "public, max-age=86400"

    /// A transparent 1×1 PNG: the answer for an image that could not be had.
    static let placeholder: [UInt8] = Array(
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==") ?? Data())
}
