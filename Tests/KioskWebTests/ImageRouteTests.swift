import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import KioskWeb

/// `/img`: only URLs Kiosk signed, fetched through the image pipeline from the sample server.
@Suite struct ImageRouteTests {
    static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func isPNG(_ body: ByteBuffer) -> Bool {
        body.getBytes(at: body.readerIndex, length: 8) == pngMagic
    }

    static func query(_ name: String, _ value: String) -> String {
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: name, value: value)]
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }

    @Test func anUnsignedRequestIsForbidden() async throws {
        try await withKioskApp { kiosk in
            let artwork = kiosk.sampleBase.absoluteString + "/images/artwork/1/100x100bb.png"
            try await kiosk.run { client, _ in
                for uri in ["/img", "/img?\(Self.query("u", artwork))", "/img?s=\(String(repeating: "a", count: 64))"] {
                    let response = try await client.get(uri)
                    #expect(response.status == .forbidden, "\(uri)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    SecurityHeadersRouteTests.expectSecurityHeaders(response, uri)
                }
            }
        }
    }

    @Test func aWrongSignatureIsForbidden() async throws {
        try await withKioskApp { kiosk in
            let artwork = kiosk.sampleBase.absoluteString + "/images/artwork/1/100x100bb.png"
            let other = kiosk.sampleBase.absoluteString + "/images/artwork/2/100x100bb.png"
            let otherSignature = kiosk.signer.signature(other)
            let signature = kiosk.signer.signature(artwork)
            let flipped = (signature.first == "0" ? "1" : "0") + signature.dropFirst()
            try await kiosk.run { client, _ in
                for s in [otherSignature, flipped, String(repeating: "0", count: 64), "nothex", ""] {
                    let uri = "/img?\(Self.query("u", artwork))&\(Self.query("s", s))"
                    let response = try await client.get(uri)
                    #expect(response.status == .forbidden, "\(s)")
                    #expect(!Self.isPNG(response.body))
                }
                // The right signature for the same URL passes (so the 403s above are the signature's).
                let good = "/img?\(Self.query("u", artwork))&\(Self.query("s", signature))"
                #expect(try await client.get(good).status == .ok)
            }
        }
    }

    @Test func theAlbumsPagesSignedArtworkLoads() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let albums = try await client.text("/albums")
                let sources = HTMLInspection.attributeValues("data-src", in: albums)
                #expect(sources.count == 100)
                let first = try #require(sources.first)
                #expect(first.hasPrefix("/img?u="))
                let response = try await client.get(first)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Self.isPNG(response.body))
                #expect(response.body.readableBytes > ImageRoute.placeholder.count)
                SecurityHeadersRouteTests.expectSecurityHeaders(response, first)
                let etag = try #require(response.headers[.eTag])
                let again = try await client.get(first, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
            }
        }
    }

    @Test func aSignedURLWithPlusAndAmpersandLoads() async throws {
        try await withKioskApp { kiosk in
            let source = kiosk.sampleBase.absoluteString + "/images/artwork/42/100x100bb.png?size=1+2&fit=a%2Bb&x=%26"
            let path = try #require(kiosk.signer.path(for: source))
            try await kiosk.run { client, _ in
                let response = try await client.get(path)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Self.isPNG(response.body))
            }
        }
    }

    @Test func aSignedImageThatCannotBeHadGivesThePlaceholder() async throws {
        try await withKioskApp { kiosk in
            let path = try #require(kiosk.signer.path(for: kiosk.sampleBase.absoluteString + "/images/nothing-here"))
            try await kiosk.run { client, _ in
                let response = try await client.get(path)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                // Why is logged, not told (it would map what the server can reach).
                #expect(!response.headers.contains { $0.name.rawName.lowercased().hasPrefix("x-kiosk") })
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(Array(buffer: response.body) == ImageRoute.placeholder)
            }
        }
    }

    @Test func aFeedCannotHaveTheServerFetchFromItsOwnNetwork() async throws {
        try await withKioskApp { kiosk in
            for address in [
                "http://127.0.0.1:1/x.png", "http://localhost/x.png", "http://169.254.169.254/latest/meta-data/",
                "http://10.0.0.1/a.png", "http://192.168.1.1/a.png", "http://172.20.0.1/a.png", "http://[::1]/a.png",
                "http://[fd00::1]/a.png", "http://[::ffff:127.0.0.1]/a.png", "http://router/a.png", "http://nas.local/a.png",
                "http://2130706433/a.png", "http://0x7f.0.0.1/a.png",
            ] {
                #expect(kiosk.signer.path(for: address) == nil, "signed \(address)")
            }
            // Public hosts, and the configured sources' own host (here the sample server on loopback), are fine.
            #expect(kiosk.signer.path(for: "https://images.example.com/a.png") != nil)
            #expect(kiosk.signer.path(for: "https://cafe.be/a.png") != nil)  // letters that happen to be hex
            #expect(kiosk.signer.path(for: "http://93.184.216.34/a.png") != nil)
            #expect(kiosk.signer.path(for: kiosk.sampleBase.absoluteString + "/images/artwork/1/100x100bb.png") != nil)
        }
    }
}
