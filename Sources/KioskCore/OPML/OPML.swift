// OPML is how feed readers hand subscription lists to one another. This folder reads and writes
// those lists as values only: no I/O, so the store and the web app decide where files come from
// and where the subscriptions go.

/// Reading and writing OPML subscription lists: ``parse(_:limits:)`` and
/// ``write(title:subscriptions:dateCreated:)``.
public enum OPML {}
