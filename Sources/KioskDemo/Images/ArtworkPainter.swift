import KioskCore

/// Paints a recognisable placeholder for an id: a diagonal gradient between two colours picked
/// from the id's hash, under a soft 4 × 4 block pattern that also comes from the hash.
enum ArtworkPainter {
    /// RGB bytes, 3 per pixel, row by row.
    static func paint(id: String, width: Int, height: Int) -> [UInt8] {
        let hash = StableHash.fnv1a64(id)
        let from = colour(hue: Int(hash % 360))
        let to = colour(hue: Int((hash >> 9) % 360))
        let pattern = UInt16(truncatingIfNeeded: hash >> 20)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let span = max(width + height - 2, 1)
        var offset = 0
        for y in 0..<height {
            let blockRow = min(y * 4 / max(height, 1), 3)
            for x in 0..<width {
                let blockColumn = min(x * 4 / max(width, 1), 3)
                let shaded = pattern >> (blockRow * 4 + blockColumn) & 1 == 1
                let t = x + y
                for channel in 0..<3 {
                    var value = (from[channel] * (span - t) + to[channel] * t) / span
                    if shaded { value = value * 3 / 4 }
                    rgb[offset + channel] = UInt8(clamping: value)
                }
                offset += 3
            }
        }
        return rgb
    }

    /// A saturated colour of `hue` degrees, channels 0...255.
    private static func colour(hue: Int) -> [Int] {
        let sector = hue / 60
        let rising = (hue % 60) * 200 / 60 + 40
        let falling = 240 - (hue % 60) * 200 / 60
        switch sector {
        case 0: return [240, rising, 40]
        case 1: return [falling, 240, 40]
        case 2: return [40, 240, rising]
        case 3: return [40, falling, 240]
        case 4: return [rising, 40, 240]
        default: return [240, 40, falling]
        }
    }
}
