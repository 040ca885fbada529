import Foundation

/// Decides what an image really is from its first bytes, never from what the source claims.
///
/// SVG is deliberately absent: it is XML that can carry scripts, so Kiosk never serves it as an image.
enum ImageSignature {
    /// True for an `image/*` content type other than SVG; parameters (`; charset=...`) are ignored.
    static func isAcceptableContentType(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let normalized = mediaType.trimmingCharacters(in: .whitespaces).lowercased()
        return normalized.hasPrefix("image/") && !normalized.hasPrefix("image/svg")
    }

    /// The MIME type of the image format `bytes` start with, or nil when they start with none Kiosk serves.
    static func mimeType(of bytes: [UInt8]) -> String? {
        if starts(bytes, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(bytes, with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(bytes, with: Array("GIF87a".utf8)) || starts(bytes, with: Array("GIF89a".utf8)) { return "image/gif" }
        if starts(bytes, with: Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        if let brand = isoBrand(of: bytes) { return brand }
        // ICO: reserved 0, type 1, at least one image.
        if starts(bytes, with: [0x00, 0x00, 0x01, 0x00]), bytes.count >= 6, bytes[4] != 0 || bytes[5] != 0 {
            return "image/x-icon"
        }
        if isBMP(bytes) { return "image/bmp" }
        return nil
    }

    /// The image of a response, if both its content type and its bytes say image.
    static func image(bytes: [UInt8], contentType: String?) -> CachedImage? {
        guard isAcceptableContentType(contentType), let type = mimeType(of: bytes) else { return nil }
        return CachedImage(bytes: bytes, contentType: type)
    }

    /// AVIF and HEIF are ISO base media files: `....ftyp` then a major brand.
    private static func isoBrand(of bytes: [UInt8]) -> String? {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
        switch String(decoding: bytes[8..<12], as: UTF8.self) {
        case "avif", "avis": return "image/avif"
        case "heic", "heix", "hevc", "hevx": return "image/heic"
        case "mif1", "msf1": return "image/heif"
        default: return nil
        }
    }

    /// "BM" alone is too weak a signature: also require a known DIB header size at offset 14.
    private static func isBMP(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D else { return false }
        let headerSize = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize)
    }

    private static func starts(_ bytes: [UInt8], with signature: [UInt8]) -> Bool {
        bytes.count >= signature.count && bytes.prefix(signature.count).elementsEqual(signature)
    }
}
