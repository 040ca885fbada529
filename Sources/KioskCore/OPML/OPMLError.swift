/// Why an OPML file could not be read. Every failure of ``OPML/parse(_:limits:)`` is one of these.
public enum OPMLError: Error, Sendable, Hashable {
    /// The file is not OPML: its first element is not `<opml>` (an RSS feed, an HTML page,
    /// garbage), or it has no element at all.
    case notOPML
    /// The file is larger than ``OPMLLimits/maxBytes``.
    case tooLarge(limit: Int)
    /// The file has more `<outline>` elements than ``OPMLLimits/maxOutlines``.
    case tooManyOutlines(limit: Int)
    /// Elements nest deeper than ``OPMLLimits/maxDepth``.
    case tooDeep(limit: Int)

    /// One sentence for the person who chose the file: what is wrong, in their words, not ours.
    public var message: String {
        switch self {
        case .notOPML:
            "This file is not an OPML subscription list; export your subscriptions as OPML from your feed reader and choose that file."
        case .tooLarge(let limit):
            "This file is larger than \(Self.size(limit)), the most an OPML import accepts."
        case .tooManyOutlines(let limit):
            "This file lists more than \(Self.grouped(limit)) feeds and folders, the most an OPML import accepts."
        case .tooDeep(let limit):
            "This file nests its folders more than \(Self.grouped(limit)) levels deep, the most an OPML import accepts."
        }
    }

    /// A byte count the way people read sizes: whole MB or KB when it is one.
    private static func size(_ bytes: Int) -> String {
        let kilobyte = 1024
        let megabyte = kilobyte * kilobyte
        if bytes >= megabyte, bytes % megabyte == 0 { return "\(grouped(bytes / megabyte)) MB" }
        if bytes >= kilobyte, bytes % kilobyte == 0 { return "\(grouped(bytes / kilobyte)) KB" }
        return bytes == 1 ? "1 byte" : "\(grouped(bytes)) bytes"
    }

    private static func grouped(_ number: Int) -> String { NumberText.grouped(number) }
}

extension OPMLError: CustomStringConvertible {
    public var description: String { message }
}
