/// A kind of polled source, in one place: its name, how an answer of it is read into entries,
/// how its entries are drawn, and the sample the demo server plays for it. The engine asks a source's kind to read what it fetched; nothing else names a parser.
/// A new kind is a folder under `Kinds/` and one line in `SourceKinds.builtIn` (docs/ARCHITECTURE.md,
/// "Adding a kind of source").
public struct SourceKind: Sendable {
    /// A kind's name in configuration (`"kind": "feed"`) and on `PolledSource`.
    public struct ID: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }

        /// RSS, RDF, Atom and JSON Feed.
        public static let feed: ID = "feed"
    }

    /// What one answer says: the entries in display order, and how long the source asks to be
    /// left alone (a feed's `<ttl>`, in minutes), if it says.
    public struct Reading: Sendable, Hashable {
        public var entries: [Entry]
        public var ttlMinutes: Int?

        public init(entries: [Entry], ttlMinutes: Int? = nil) {
            self.entries = entries
            self.ttlMinutes = ttlMinutes
        }
    }

    /// What the demo server answers for a kind (at `/kinds/<id>`), so demo mode polls a source of
    /// every kind that has one with no network. The feed kind has none of its own: the News
    /// sources are its samples.
    public struct DemoSample: Sendable {
        public var contentType: String
        /// The answer's bytes, the same on every request (its ETag is their hash).
        public var body: @Sendable () -> [UInt8]

        public init(contentType: String, body: @escaping @Sendable () -> [UInt8]) {
            self.contentType = contentType
            self.body = body
        }
    }

    /// How a kind's entries are drawn in lists and on their pages (the web app draws each way).
    public enum Drawing: String, Sendable, Hashable, CaseIterable {
        /// Articles: a title, a line of summary, the date; the page shows the description (feeds).
        case headlines
        /// Posts with no title of their own (a timeline, notes): the author and the whole short
        /// text, the date; its first words stand for a title where one is needed.
        case posts
    }

    /// Reads an answer's bytes (with the charset its headers named, if any) within `limits`. A
    /// `FeedError` is shown as such; any other error by its description.
    public typealias Read = @Sendable (_ bytes: [UInt8], _ charset: String?, _ limits: ParserLimits) throws -> Reading

    public let id: ID
    /// What people call it ("Feed").
    public let name: String
    public let read: Read
    /// Its sample in demo mode, if it has one.
    public let demo: DemoSample?
    /// How its entries are drawn.
    public let drawing: Drawing

    public init(id: ID, name: String, drawing: Drawing = .headlines, demo: DemoSample? = nil, read: @escaping Read) {
        self.id = id
        self.name = name
        self.drawing = drawing
        self.demo = demo
        self.read = read
    }
}
