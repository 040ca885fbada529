import KioskCore

/// Which entries of a list are "the same entry", for the store: an entry is known by its feed
/// id, else its link, else its title, so an edited title updates a row instead of adding one.
enum EntryIdentity {
    /// The identity of `entry`; an entry with none of the three is known by its position,
    /// which is the best a feed that names nothing allows.
    static func of(_ entry: Entry, at position: Int) -> String {
        for candidate in [entry.id, entry.link, entry.title] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return "kiosk:position:\(position)"
    }

    /// `entries` with each identity kept once (its first, top-most occurrence), in order, with
    /// the identity of each: feeds do repeat items, and a store row is one identity.
    static func deduplicated(_ entries: [Entry]) -> [(identity: String, entry: Entry)] {
        var seen = Set<String>()
        var kept: [(identity: String, entry: Entry)] = []
        kept.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() {
            let identity = of(entry, at: position)
            if seen.insert(identity).inserted { kept.append((identity, entry)) }
        }
        return kept
    }
}
