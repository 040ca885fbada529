import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// A kind names how its entries are drawn (`SourceKind.drawing`), and the pages draw them so:
/// a kind of posts (no titles) gets its author and whole text in lists, its first words as a
/// title on its page; feeds keep their headlines beside it.
@Suite struct KindDrawingTests {
    /// A kind whose entries are posts: each line of its answer is one.
    static let notes = SourceKind(
        id: "notes", name: "Notes", drawing: .posts,
        demo: SourceKind.DemoSample(contentType: "text/plain") { Array("a note\n".utf8) }
    ) { bytes, _, _ in
        SourceKind.Reading(entries: String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { Entry(id: String($0), content: String($0)) })
    }

    static let post = Entry(
        id: "p1", authors: [Author(name: "Ada")],
        content: "Hello <b>world</b>, from a post with no title of its own.")

    @Test func aKindOfPostsIsDrawnAsPostsAndFeedsAsHeadlines() async throws {
        try await withKioskApp(kinds: SourceKinds.builtIn.adding(Self.notes)) { kiosk in
            let notes = SourceID("demo-notes")
            try await kiosk.store.saveSourceState(SourceState(entries: [Self.post]), for: notes)
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "h1", title: "A headline", summary: "Its summary.")]), for: .business)
            try await kiosk.run { client, _ in
                let list = try await client.text("/reader/feed/demo-notes")
                #expect(list.contains(#"class="entry entry-post reader-entry""#))
                #expect(list.contains(#"<span class="entry-byline">"#))
                #expect(list.contains("Ada"))
                #expect(list.contains("Hello world, from a post with no title of its own."))
                #expect(!list.contains("Untitled"))
                #expect(!list.contains(#"class="entry-title""#))

                let key = EntryIdentity.key(of: Self.post)
                let page = try await client.text("/reader/entry/demo-notes/\(key)")
                #expect(page.contains(#"<h1 id="entry-title">Hello world, from a post with no title of its own.</h1>"#))

                let headlines = try await client.text("/reader/feed/business")
                #expect(headlines.contains(#"class="entry reader-entry""#))
                #expect(headlines.contains("A headline"))
                #expect(!headlines.contains("entry-post"))

            }
        }
    }

    @Test func everySourceOfAKnownKindGetsItsKindsDrawing() throws {
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        let catalogue = SourceCatalogue(
            feeds: [
                PolledSource(id: "n", name: "N", url: base, kind: "notes"),
                PolledSource(id: "f", name: "F", url: base),
                PolledSource(id: "u", name: "U", url: base, kind: "unknown"),
            ], merged: [], factsURL: nil, albumsURL: nil, newsAPI: NewsAPISettings(baseURL: nil, apiKey: nil), jokesURL: nil)
        let drawings = EntryDrawings(catalogue: catalogue, kinds: SourceKinds.builtIn.adding(Self.notes))
        #expect(drawings.drawing(of: "n") == .posts)
        #expect(drawings.drawing(of: "f") == .headlines)
        #expect(drawings.drawing(of: "u") == .headlines)
        #expect(drawings.drawing(of: "added-by-a-reader") == .headlines)
    }
}
