/// Images in memory, least recently used evicted first, bounded by total bytes.
///
/// A doubly linked list threaded through the dictionary keeps lookups, touches and evictions O(1).
struct MemoryImageCache {
    private struct Entry {
        var image: CachedImage
        var older: String?
        var newer: String?
    }

    /// Most bytes held at once; an image larger than this is never held.
    let limitBytes: Int
    /// Bytes held now.
    private(set) var totalBytes = 0
    private var entries: [String: Entry] = [:]
    private var newest: String?
    private var oldest: String?

    init(limitBytes: Int) {
        self.limitBytes = max(0, limitBytes)
    }

    /// Number of images held.
    var count: Int { entries.count }

    /// Whether `key` is held, without counting as a use.
    func contains(_ key: String) -> Bool { entries[key] != nil }

    /// The image for `key`, which becomes the most recently used.
    mutating func image(for key: String) -> CachedImage? {
        guard let entry = entries[key] else { return nil }
        unlink(key)
        linkAsNewest(key, image: entry.image)
        return entry.image
    }

    /// Holds `image` as the most recently used, evicting the least recently used until it fits.
    mutating func insert(_ image: CachedImage, for key: String) {
        remove(key)
        guard image.bytes.count <= limitBytes else { return }
        while totalBytes + image.bytes.count > limitBytes, let victim = oldest {
            remove(victim)
        }
        linkAsNewest(key, image: image)
        totalBytes += image.bytes.count
    }

    /// Forgets `key`.
    mutating func remove(_ key: String) {
        guard let entry = entries[key] else { return }
        unlink(key)
        entries[key] = nil
        totalBytes -= entry.image.bytes.count
    }

    private mutating func unlink(_ key: String) {
        guard let entry = entries[key] else { return }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        entries[key]?.older = nil
        entries[key]?.newer = nil
    }

    private mutating func linkAsNewest(_ key: String, image: CachedImage) {
        entries[key] = Entry(image: image, older: newest, newer: nil)
        if let newest { entries[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
    }
}
