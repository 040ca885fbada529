import Testing
@testable import KioskCore

/// One identity rule for the store, the web app and the sync APIs.
@Suite struct EntryIdentityTests {
    @Test func guidWinsThenLinkThenAHashOfTheText() {
        #expect(EntryIdentity.of(Entry(id: "urn:1", title: "T", link: "https://a/1")) == "urn:1")
        #expect(EntryIdentity.of(Entry(id: "  ", title: "T", link: " https://a/1 ")) == "https://a/1")
        let nameless = EntryIdentity.of(Entry(title: "T", summary: "S"))
        #expect(nameless.hasPrefix("kiosk:hash:"))
        #expect(nameless == EntryIdentity.of(Entry(title: "T", summary: "S")))
        #expect(nameless != EntryIdentity.of(Entry(title: "T", summary: "S2")))
    }

    @Test func anEditedTitleKeepsTheIdentity() {
        let before = Entry(id: "urn:1", title: "Draft", summary: "a")
        let after = Entry(id: "urn:1", title: "Final title", summary: "b")
        #expect(EntryIdentity.of(before) == EntryIdentity.of(after))
        #expect(EntryIdentity.key(of: before) == EntryIdentity.key(of: after))
        #expect(EntryIdentity.key(of: before).count == 16)
    }

    @Test func duplicatesInAFeedKeepTheTopMostOccurrence() {
        let entries = [Entry(id: "a", title: "1"), Entry(id: "b"), Entry(id: "a", title: "2")]
        let kept = EntryIdentity.deduplicated(entries)
        #expect(kept.map(\.identity) == ["a", "b"])
        #expect(kept.first?.entry.title == "1")
    }
}
