import KioskCore

extension ArticleDocument.Node {
    /// Whether the page hides this element from readers: the `hidden` attribute, `aria-hidden`
    /// (except on Readability's fallback images), or a style of `display: none` or
    /// `visibility: hidden`. One answer for the grabber, which removes such elements, and for
    /// the page's own article, which is no article when hidden.
    var isHidden: Bool {
        if attributes.isEmpty { return false }
        if value(of: "hidden") != nil { return true }
        if value(of: "aria-hidden") == "true", !(value(of: "class") ?? "").contains("fallback-image") { return true }
        if let style = value(of: "style") {
            // ASCII lowercased, spaces out, as bytes (Foundation's replacing was a fiftieth of the
            // time); no other character lowercases into these ASCII words.
            var squeezed: [UInt8] = []
            squeezed.reserveCapacity(style.utf8.count)
            for byte in style.utf8 where byte != 0x20 { squeezed.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
            return containsBytes(squeezed, HiddenStyle.displayNone) || containsBytes(squeezed, HiddenStyle.visibilityHidden)
        }
        return false
    }
}

private enum HiddenStyle {
    static let displayNone = Array("display:none".utf8)
    static let visibilityHidden = Array("visibility:hidden".utf8)
}
