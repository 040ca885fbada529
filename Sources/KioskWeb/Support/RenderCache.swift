/// The last rendering of a value that rarely changes (the album chart): pages drawn from an equal
/// value reuse it instead of rendering (and signing 100 image URLs) again.
actor RenderCache<Value: Hashable & Sendable> {
    private var last: (value: Value, html: RenderedHTML)?

    func html(for value: Value, render: @Sendable (Value) -> RenderedHTML) -> RenderedHTML {
        if let last, last.value == value { return last.html }
        let html = render(value)
        last = (value, html)
        return html
    }
}
