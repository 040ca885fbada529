import Foundation

/// Which entries are "the same entry": the one rule the store, the web app and (later) the sync
/// APIs share, so read and star state follow an entry through edits of its title or text.
///
/// An entry is known by its feed's `guid`/`id`, else its link, else a stable hash of its title
/// and summary (a feed that names nothing gives nothing better). Identities are per feed.
public enum EntryIdentity {
    /// The identity of `entry`, never empty.
    public static func of(_ entry: Entry) -> String {
        if let id = nonBlank(entry.id) { return id }
        if let link = nonBlank(entry.link) { return link }
        return "kiosk:hash:" + StableHash.hex((entry.title ?? "") + "\u{1F}" + (entry.summary ?? ""))
    }

    /// A short key for URLs and list rows: 16 hex digits, the same in every process.
    public static func key(of entry: Entry) -> String {
        StableHash.hex(of(entry))
    }

    /// `entries` with each identity kept once (its first, top-most occurrence), in order, with
    /// the identity of each: feeds do repeat items, and an entry is one identity.
    public static func deduplicated(_ entries: [Entry]) -> [(identity: String, entry: Entry)] {
        var seen = Set<String>()
        var kept: [(identity: String, entry: Entry)] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            let identity = of(entry)
            if seen.insert(identity).inserted { kept.append((identity, entry)) }
        }
        return kept
    }

    /// How many of `entries` are not in `before` (by identity): the new ones a change announces.
    public static func countNew(_ entries: [Entry], since before: [Entry]?) -> Int {
        let previous = Set((before ?? []).map(key(of:)))
        return entries.filter { !previous.contains(key(of: $0)) }.count
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
