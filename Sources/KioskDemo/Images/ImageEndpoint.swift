import Hummingbird

/// `GET /images/<kind>/<id>/<W>x<H>bb.png`: a generated PNG, W and H capped at ``maximumSide``.
struct ImageEndpoint: Sendable {
    static let maximumSide = 1200

    let cache: ImageCache

    /// The answer for the path segments after `/images/`.
    func respond(segments: [Substring]) async -> DemoReply {
        guard segments.count == 3, let (width, height) = Self.size(segments[2]) else { return .notFound }
        let key = "\(segments[0])/\(segments[1])/\(width)x\(height)"
        let png: [UInt8]
        if let cached = await cache.image(for: key) {
            png = cached
        } else {
            let rgb = ArtworkPainter.paint(id: "\(segments[0])/\(segments[1])", width: width, height: height)
            png = PNGEncoder.encode(width: width, height: height, rgb: rgb)
            await cache.store(png, for: key)
        }
        var reply = DemoReply(contentType: "image/png", body: png)
        reply.headers[.cacheControl] = "public, max-age=86400"
        return reply
    }

    /// `600x400bb.png` → (600, 400), each side capped; nil when not in that form or zero.
    static func size(_ segment: Substring) -> (Int, Int)? {
        guard segment.hasSuffix("bb.png") else { return nil }
        let dimensions = segment.dropLast("bb.png".count).split(separator: "x", omittingEmptySubsequences: false)
        guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]), width > 0, height > 0
        else { return nil }
        return (min(width, maximumSide), min(height, maximumSide))
    }
}
