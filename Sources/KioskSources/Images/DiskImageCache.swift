import Foundation
import KioskCore

/// Images on disk, one file per URL, least recently used evicted first, bounded by total bytes.
///
/// A file is named by the FNV-1a hash of its URL and holds a small header (the URL itself, to
/// rule out hash collisions, and the content type) before the image bytes. Use is tracked in
/// memory and persisted as the file's modification date, so a new cache on the same directory
/// (after a restart) keeps both the images and their order. Disk failures are never fatal: a
/// file that cannot be read or written is a miss. What a user reads shows in their images, so
/// the folder is created 0700 and each file 0600, by `mkdir` and `open` themselves (Foundation
/// creates with the umask's mode, readable by all by default).
actor DiskImageCache {
    private struct Record {
        var bytes: Int
        var lastUse: Date
    }

    private static let fileExtension = "kimg"
    private static let magic = Array("KIMG".utf8) + [1]

    /// Where the files live; created when missing.
    let directory: URL
    /// Most bytes of image files kept at once.
    let limitBytes: Int
    /// Files by name, loaded from the directory on first use.
    private var index: [String: Record]?
    private var totalBytes = 0
    init(directory: URL, limitBytes: Int) {
        self.directory = directory
        self.limitBytes = max(0, limitBytes)
    }

    /// The image stored for `url`, which becomes the most recently used; nil on a miss.
    func image(for url: String) -> CachedImage? {
        let name = Self.fileName(for: url)
        guard loadedIndex()[name] != nil else { return nil }
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else {
            discard(name)
            return nil
        }
        let bytes = [UInt8](data)
        guard let image = Self.decode(bytes, expectedURL: url) else {
            // Another URL with the same hash keeps its file; a corrupt one goes.
            let owner = Self.header(of: bytes)?.url
            if owner == nil || owner == url { discard(name) }
            return nil
        }
        touch(name)
        return image
    }

    /// Stores `image` for `url` as the most recently used, evicting least recently used files to
    /// fit.
    func store(_ image: CachedImage, for url: String) {
        write(image, for: url)
    }

    private func write(_ image: CachedImage, for url: String) {
        let name = Self.fileName(for: url)
        let encoded = Self.encode(image, url: url)
        _ = loadedIndex()
        discard(name)
        guard encoded.count <= limitBytes else { return }
        evict(toFit: encoded.count)
        let file = directory.appendingPathComponent(name)
        // Private to Kiosk's user, created so (see `PrivateFiles`); a cache that cannot write skips.
        guard (try? PrivateFiles.createDirectory(directory)) != nil,
            (try? PrivateFiles.writeAtomically(encoded, to: file)) != nil
        else { return }
        let now = Date()
        index?[name] = Record(bytes: encoded.count, lastUse: now)
        totalBytes += encoded.count
    }

    // MARK: index

    private func loadedIndex() -> [String: Record] {
        if let index { return index }
        var loaded: [String: Record] = [:]
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]
            )) ?? []
        for file in files where Self.isCacheFileName(file.lastPathComponent) {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                let size = values.fileSize
            else { continue }
            loaded[file.lastPathComponent] = Record(bytes: size, lastUse: values.contentModificationDate ?? .distantPast)
        }
        index = loaded
        totalBytes = loaded.values.reduce(0) { $0 + $1.bytes }
        // A smaller limit than last time applies at once.
        evict(toFit: 0)
        return index ?? loaded
    }

    private func touch(_ name: String) {
        let now = Date()
        index?[name]?.lastUse = now
        // Persist the use so the order survives a restart; failing to is harmless.
        try? FileManager.default.setAttributes(
            [.modificationDate: now], ofItemAtPath: directory.appendingPathComponent(name).path
        )
    }

    private func evict(toFit incoming: Int) {
        guard let current = index, totalBytes + incoming > limitBytes else { return }
        let byAge = current.sorted { $0.value.lastUse < $1.value.lastUse }
        for (name, _) in byAge where totalBytes + incoming > limitBytes {
            discard(name)
        }
    }

    private func discard(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        if let record = index?.removeValue(forKey: name) {
            totalBytes -= record.bytes
        }
    }

    // MARK: file format

    static func fileName(for url: String) -> String {
        "\(StableHash.hex(url)).\(fileExtension)"
    }

    private static func isCacheFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && parts[1] == fileExtension && parts[0].count == 16
            && parts[0].allSatisfy(\.isHexDigit)
    }

    /// `KIMG` 0x01, URL length (UInt32 big-endian), URL, content type length (UInt8), content type, image.
    static func encode(_ image: CachedImage, url: String) -> [UInt8] {
        let urlBytes = Array(url.utf8)
        let typeBytes = Array(image.contentType.utf8.prefix(255))
        var out = magic
        out.reserveCapacity(magic.count + 5 + urlBytes.count + typeBytes.count + image.bytes.count)
        let length = UInt32(clamping: urlBytes.count)
        out += [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        out += urlBytes
        out.append(UInt8(typeBytes.count))
        out += typeBytes
        out += image.bytes
        return out
    }

    /// The image of a file written by ``encode(_:url:)`` for `expectedURL`; nil for anything else,
    /// including a file whose image no longer passes the signature check.
    static func decode(_ bytes: [UInt8], expectedURL: String) -> CachedImage? {
        guard let (url, typeRange) = header(of: bytes), url == expectedURL else { return nil }
        let contentType = String(decoding: bytes[typeRange], as: UTF8.self)
        let image = Array(bytes[typeRange.upperBound...])
        guard ImageSignature.mimeType(of: image) == contentType else { return nil }
        return CachedImage(bytes: image, contentType: contentType)
    }

    /// The URL and the range of the content type of a record, or nil if the header is malformed.
    private static func header(of bytes: [UInt8]) -> (url: String, contentType: Range<Int>)? {
        guard bytes.count >= magic.count + 5, Array(bytes[0..<magic.count]) == magic else { return nil }
        var position = magic.count
        let length = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
        position += 4
        guard length <= bytes.count - position - 1 else { return nil }
        let url = String(decoding: bytes[position..<position + length], as: UTF8.self)
        position += length
        let typeLength = Int(bytes[position])
        position += 1
        guard typeLength <= bytes.count - position else { return nil }
        return (url, position..<position + typeLength)
    }
}
