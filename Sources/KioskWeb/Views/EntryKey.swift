import KioskCore

/// An entry's key in URLs and list items: a hash of its identity (`id`, else link, else title),
/// stable across restarts and polls.
enum EntryKey {
    static func of(_ entry: Entry) -> String {
        StableHash.hex(entry.id ?? entry.link ?? entry.title ?? "")
    }
}
