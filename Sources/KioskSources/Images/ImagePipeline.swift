import Foundation

/// Fetches, checks and caches the images pages show, behind the image proxy route.
///
/// Only http(s) URLs; only answers that say `image/*` (never SVG) *and* whose bytes start with a
/// known image signature; never more than `maxImageBytes`. Concurrent requests for one URL share
/// a single upstream fetch. Hits come from memory (LRU, bounded by bytes), then from disk (LRU,
/// bounded by bytes, kept across restarts) when a directory is given.
public actor ImagePipeline {
    private typealias Waiter = CheckedContinuation<Result<CachedImage, ImageError>, Never>

    private let fetcher: any Fetching
    private let maxImageBytes: Int
    private let disk: DiskImageCache?
    private var memory: MemoryImageCache
    /// Callers waiting for each URL being loaded; present exactly while one load for it runs.
    private var flights: [String: [Int: Waiter]] = [:]
    private var nextWaiterID = 0

    /// A pipeline fetching through `fetcher`.
    /// - Parameters:
    ///   - memoryLimitBytes: bytes of images kept in memory.
    ///   - diskDirectory: where images are kept on disk; nil keeps none.
    ///   - diskLimitBytes: bytes of files kept in `diskDirectory`.
    ///   - maxImageBytes: largest image accepted.
    public init(
        fetcher: any Fetching, memoryLimitBytes: Int = 64 << 20, diskDirectory: URL? = nil,
        diskLimitBytes: Int = 256 << 20, maxImageBytes: Int = 8 << 20
    ) {
        self.fetcher = fetcher
        self.maxImageBytes = maxImageBytes
        self.memory = MemoryImageCache(limitBytes: memoryLimitBytes)
        self.disk = diskDirectory.map { DiskImageCache(directory: $0, limitBytes: diskLimitBytes) }
    }

    /// The image at `url`, from a cache or fetched.
    ///
    /// A caller cancelled while waiting gets ``ImageError/cancelled`` at once; the fetch it may have
    /// started goes on for the other callers and the caches.
    public func image(for url: URL) async throws(ImageError) -> CachedImage {
        guard HTTPFetcher.isFetchable(url) else { throw .invalidURL(url.absoluteString) }
        let key = url.absoluteString
        if let hit = memory.image(for: key) { return hit }
        let id = nextWaiterID
        nextWaiterID += 1
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                // Runs on this actor before any suspension, so enlisting and starting are one step.
                enlist(waiter, id: id, key: key, url: url)
            }
        } onCancel: {
            Task { await self.dismiss(id: id, key: key) }
        }
        return try result.get()
    }

    /// Whether `url`'s image is in memory now (for tests and diagnostics).
    public func isInMemory(_ url: URL) -> Bool {
        memory.contains(url.absoluteString)
    }

    private func enlist(_ waiter: Waiter, id: Int, key: String, url: URL) {
        if Task.isCancelled {
            waiter.resume(returning: .failure(.cancelled))
            return
        }
        if let hit = memory.image(for: key) {
            waiter.resume(returning: .success(hit))
            return
        }
        if flights[key] != nil {
            flights[key]?[id] = waiter
            return
        }
        flights[key] = [id: waiter]
        // Unstructured on purpose: the load must not inherit (or die with) this caller's cancellation.
        Task { [fetcher, disk, maxImageBytes] in
            let result = await Self.load(url: url, key: key, fetcher: fetcher, disk: disk, maxImageBytes: maxImageBytes)
            self.land(result, key: key)
        }
    }

    private func dismiss(id: Int, key: String) {
        flights[key]?.removeValue(forKey: id)?.resume(returning: .failure(.cancelled))
    }

    private func land(_ result: Result<CachedImage, ImageError>, key: String) {
        if case .success(let image) = result {
            memory.insert(image, for: key)
        }
        for waiter in (flights.removeValue(forKey: key) ?? [:]).values {
            waiter.resume(returning: result)
        }
    }

    /// Disk, then network; runs off the actor so hits for other URLs are never held up.
    private static func load(
        url: URL, key: String, fetcher: any Fetching, disk: DiskImageCache?, maxImageBytes: Int
    ) async -> Result<CachedImage, ImageError> {
        if let disk, let image = await disk.image(for: key) {
            return .success(image)
        }
        let request = FetchRequest(
            url: url, headers: ["Accept": "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8"],
            maxBytes: maxImageBytes
        )
        let body: FetchedBody
        do {
            switch try await fetcher.fetch(request) {
            case .fetched(let fetched): body = fetched
            // No validators were sent, so a 304 is the source misbehaving.
            case .notModified: return .failure(.fetch(.status(code: 304, message: nil, retryAfter: nil)))
            }
        } catch .tooLarge {
            return .failure(.tooLarge(limit: maxImageBytes))
        } catch {
            return .failure(.fetch(error))
        }
        // A `Fetching` other than HTTPFetcher may not enforce the cap.
        guard body.bytes.count <= maxImageBytes else { return .failure(.tooLarge(limit: maxImageBytes)) }
        guard let image = ImageSignature.image(bytes: body.bytes, contentType: body.contentType) else {
            return .failure(.notAnImage)
        }
        // Stored before the callers hear back, so a returned image is already on disk.
        await disk?.store(image, for: key)
        return .success(image)
    }
}
