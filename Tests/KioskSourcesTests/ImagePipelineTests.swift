import AsyncHTTPClient
import Foundation
import KioskCore
import Testing

@testable import KioskSources

/// ImagePipeline over a real loopback server, plus its signature sniffing, hashing and LRU parts.
@Suite struct ImagePipelineTests {
    // MARK: sharing one fetch

    @Test func fiftyConcurrentRequestsForOneURLMakeOneFetch() async throws {
        try await withPipeline { server, pipeline in
            let url = try server.url("/image/shared?delay=300")
            let images = try await withThrowingTaskGroup(of: CachedImage.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await pipeline.image(for: url) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(images.count == 50)
            #expect(Set(images).count == 1)
            #expect(images.first?.contentType == "image/png")
            #expect(await server.log.count("/image/shared") == 1)
        }
    }

    @Test func aCancelledCallerDoesNotCancelTheSharedFetch() async throws {
        try await withPipeline { server, pipeline in
            let url = try server.url("/image/patient?delay=600")
            let quitter = Task { try await pipeline.image(for: url) }
            let stayer = Task { try await pipeline.image(for: url) }
            try await Task.sleep(for: .milliseconds(150))
            quitter.cancel()
            let quitterResult = await quitter.result
            #expect(throws: ImageError.cancelled) { try quitterResult.get() }
            let image = try await stayer.value
            #expect(image.bytes.count == 1_000)
            #expect(await server.log.count("/image/patient") == 1)
            #expect(await pipeline.isInMemory(url))
        }
    }

    // MARK: caches

    @Test func memoryCacheEvictsTheLeastRecentlyUsed() async throws {
        // Room for two 1 000-byte images.
        try await withPipeline(memoryLimitBytes: 2_500) { server, pipeline in
            let a = try server.url("/image/a")
            let b = try server.url("/image/b")
            let c = try server.url("/image/c")
            _ = try await pipeline.image(for: a)
            _ = try await pipeline.image(for: b)
            _ = try await pipeline.image(for: a)  // a is now more recent than b
            _ = try await pipeline.image(for: c)  // evicts b
            #expect(await pipeline.isInMemory(a))
            #expect(await !pipeline.isInMemory(b))
            #expect(await pipeline.isInMemory(c))
            _ = try await pipeline.image(for: a)
            _ = try await pipeline.image(for: b)
            #expect(await server.log.count("/image/a") == 1)
            #expect(await server.log.count("/image/b") == 2)
        }
    }

    @Test func diskCacheServesANewPipelineOnTheSameDirectory() async throws {
        try await withTemporaryDirectory { directory in
            try await withPipeline(diskDirectory: directory) { server, first in
                let url = try server.url("/image/kept?size=5000")
                let original = try await first.image(for: url)
                #expect(await server.log.count("/image/kept") == 1)

                let client = HTTPFetcher.makeClient()
                let second = ImagePipeline(fetcher: HTTPFetcher(client: client), diskDirectory: directory)
                let again = try await second.image(for: url)
                try await client.shutdown()
                #expect(again == original)
                #expect(await server.log.count("/image/kept") == 1)
            }
        }
    }

    @Test func diskCacheEvictsTheLeastRecentlyUsed() async throws {
        try await withTemporaryDirectory { directory in
            // No memory cache, and disk room for two images (each file is 1 000 bytes plus a small header).
            try await withPipeline(memoryLimitBytes: 0, diskDirectory: directory, diskLimitBytes: 2_300) {
                server, pipeline in
                let a = try server.url("/image/a")
                let b = try server.url("/image/b")
                let c = try server.url("/image/c")
                _ = try await pipeline.image(for: a)
                _ = try await pipeline.image(for: b)
                _ = try await pipeline.image(for: a)  // from disk; a is now more recent than b
                _ = try await pipeline.image(for: c)  // evicts b
                _ = try await pipeline.image(for: a)
                _ = try await pipeline.image(for: b)
                #expect(await server.log.count("/image/a") == 1)
                #expect(await server.log.count("/image/b") == 2)
                #expect(await server.log.count("/image/c") == 1)
                let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                #expect(files.filter { $0.hasSuffix(".kimg") }.count == 2)
            }
        }
    }

    // MARK: rejections

    @Test func htmlServedAsPNGIsNotAnImage() async throws {
        try await withPipeline { server, pipeline in
            await #expect(throws: ImageError.notAnImage) { try await pipeline.image(for: try server.url("/fake-image")) }
        }
    }

    @Test func svgIsNotServed() async throws {
        try await withPipeline { server, pipeline in
            await #expect(throws: ImageError.notAnImage) { try await pipeline.image(for: try server.url("/svg")) }
        }
    }

    @Test func imageBytesServedAsHTMLAreRefused() async throws {
        try await withPipeline { server, pipeline in
            await #expect(throws: ImageError.notAnImage) { try await pipeline.image(for: try server.url("/mislabelled")) }
        }
    }

    @Test func theTypeComesFromTheBytesNotTheClaim() async throws {
        try await withPipeline { server, pipeline in
            let image = try await pipeline.image(for: try server.url("/gif-as-png"))
            #expect(image.contentType == "image/gif")
        }
    }

    @Test func anImageOverTheLimitIsTooLarge() async throws {
        try await withPipeline(maxImageBytes: 10_000) { server, pipeline in
            await #expect(throws: ImageError.tooLarge(limit: 10_000)) {
                try await pipeline.image(for: try server.url("/image/big?size=50000"))
            }
        }
    }

    @Test func onlyHTTPAndHTTPSImagesAreFetched() async throws {
        try await withPipeline { _, pipeline in
            let url = try #require(URL(string: "file:///etc/passwd"))
            await #expect(throws: ImageError.invalidURL("file:///etc/passwd")) { try await pipeline.image(for: url) }
        }
    }

    @Test func fetchErrorsAreWrapped() async throws {
        try await withPipeline { server, pipeline in
            await #expect(
                throws: ImageError.fetch(.status(code: 500, message: "Your API key is invalid or incorrect.", retryAfter: nil))
            ) { try await pipeline.image(for: try server.url("/status/newsapi")) }
        }
    }

    // MARK: parts

    @Test func signaturesAreRecognised() {
        func padded(_ head: [UInt8]) -> [UInt8] { head + Array(repeating: 0, count: 32) }
        #expect(ImageSignature.mimeType(of: padded(TestServer.pngSignature)) == "image/png")
        #expect(ImageSignature.mimeType(of: padded([0xFF, 0xD8, 0xFF, 0xE0])) == "image/jpeg")
        #expect(ImageSignature.mimeType(of: padded(Array("GIF87a".utf8))) == "image/gif")
        #expect(ImageSignature.mimeType(of: padded(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8))) == "image/webp")
        #expect(ImageSignature.mimeType(of: padded([0, 0, 0, 0x1C] + Array("ftypavif".utf8))) == "image/avif")
        #expect(ImageSignature.mimeType(of: padded([0, 0, 0, 0x18] + Array("ftypheic".utf8))) == "image/heic")
        #expect(ImageSignature.mimeType(of: padded([0, 0, 0, 0x18] + Array("ftypmif1".utf8))) == "image/heif")
        #expect(ImageSignature.mimeType(of: padded([0, 0, 1, 0, 1, 0])) == "image/x-icon")
        let bmp: [UInt8] = [0x42, 0x4D] + Array(repeating: 0, count: 12) + [40, 0, 0, 0]
        #expect(ImageSignature.mimeType(of: padded(bmp)) == "image/bmp")
    }

    @Test func nonImagesAreNotRecognised() {
        #expect(ImageSignature.mimeType(of: []) == nil)
        #expect(ImageSignature.mimeType(of: Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)) == nil)
        #expect(ImageSignature.mimeType(of: Array("<html>".utf8)) == nil)
        #expect(ImageSignature.mimeType(of: Array("BM but not a bitmap at all".utf8)) == nil)
        #expect(ImageSignature.mimeType(of: [0x89, 0x50, 0x4E]) == nil)  // truncated PNG signature
        #expect(ImageSignature.mimeType(of: padded([0, 0, 0, 0x18] + Array("ftypisom".utf8))) == nil)  // MP4
        #expect(!ImageSignature.isAcceptableContentType("image/svg+xml"))
        #expect(!ImageSignature.isAcceptableContentType("text/html"))
        #expect(!ImageSignature.isAcceptableContentType(nil))
        #expect(ImageSignature.isAcceptableContentType("IMAGE/PNG; charset=binary"))

        func padded(_ head: [UInt8]) -> [UInt8] { head + Array(repeating: 0, count: 32) }
    }

    @Test func stableHashIsFNV1a64() {
        #expect(StableHash.hex("") == "cbf29ce484222325")
        #expect(StableHash.hex("a") == "af63dc4c8601ec8c")
        #expect(StableHash.hex("foobar") == "85944171f73967e8")
    }

    @Test func diskRecordsRoundTripAndRejectOtherURLs() {
        let image = CachedImage(bytes: TestServer.pngSignature + [1, 2, 3], contentType: "image/png")
        let encoded = DiskImageCache.encode(image, url: "http://a.example/x.png")
        #expect(DiskImageCache.decode(encoded, expectedURL: "http://a.example/x.png") == image)
        #expect(DiskImageCache.decode(encoded, expectedURL: "http://b.example/x.png") == nil)
        #expect(DiskImageCache.decode(Array(encoded.prefix(10)), expectedURL: "http://a.example/x.png") == nil)
        #expect(DiskImageCache.decode([], expectedURL: "") == nil)
    }

    @Test func memoryCacheKeepsWithinItsBytes() {
        var cache = MemoryImageCache(limitBytes: 100)
        let forty = CachedImage(bytes: Array(repeating: 0, count: 40), contentType: "image/png")
        cache.insert(forty, for: "1")
        cache.insert(forty, for: "2")
        #expect(cache.image(for: "1") != nil)  // 1 becomes the most recent
        cache.insert(forty, for: "3")  // evicts 2
        #expect(cache.contains("1") && !cache.contains("2") && cache.contains("3"))
        #expect(cache.totalBytes == 80)
        cache.insert(CachedImage(bytes: Array(repeating: 0, count: 101), contentType: "image/png"), for: "huge")
        #expect(!cache.contains("huge") && cache.count == 2)
        cache.remove("1")
        cache.remove("3")
        #expect(cache.count == 0 && cache.totalBytes == 0)
    }

    // MARK: helpers

    private func withPipeline(
        memoryLimitBytes: Int = 64 << 20, diskDirectory: URL? = nil, diskLimitBytes: Int = 256 << 20,
        maxImageBytes: Int = 8 << 20,
        _ body: (TestServer, ImagePipeline) async throws -> Void
    ) async throws {
        let client = HTTPFetcher.makeClient()
        let pipeline = ImagePipeline(
            fetcher: HTTPFetcher(client: client), memoryLimitBytes: memoryLimitBytes, diskDirectory: diskDirectory,
            diskLimitBytes: diskLimitBytes, maxImageBytes: maxImageBytes
        )
        do {
            try await TestServer.run { server in try await body(server, pipeline) }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiosk-images-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }
}
