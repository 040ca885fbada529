import Foundation
import KioskCore
import KioskModel
import KioskSources

/// An episode's Podcasting 2.0 files, its chapters and its transcript, fetched through the
/// guarded fetcher (the destination guard of feeds, images and articles) when a player asks for
/// them, read by ``PodcastChapters`` and ``PodcastTranscript``, and kept in memory for the next
/// listener: such a file does not change once published.
public actor EpisodeFiles {
    /// Files kept of each kind; past that the oldest half is forgotten.
    static let kept = 256

    private let fetcher: any Fetching
    private let timeout: Duration
    private var chapters = Kept<[Chapter]>()
    private var transcripts = Kept<[TranscriptCue]>()

    public init(fetcher: any Fetching, timeout: Duration = .seconds(10)) {
        self.fetcher = fetcher
        self.timeout = timeout
    }

    /// The chapters at `link`, or why there are none, said for the listener.
    public func chapters(at link: String) async -> Result<[Chapter], EpisodeFileFailure> {
        if let known = chapters.value(for: link) { return .success(known) }
        let result = await read(link, maxBytes: PodcastChapters.maxBytes, what: "chapters") { bytes throws(ChaptersError) in
            try PodcastChapters.parse(bytes)
        }
        if case .success(let list) = result { chapters.keep(list, for: link) }
        return result
    }

    /// The transcript at `link`, read as `format`, or why there is none; kept for the next
    /// listener unless `keep` is false (search's index reads every episode's once).
    public func transcript(at link: String, format: PodcastTranscript.Format, keep: Bool = true) async
        -> Result<[TranscriptCue], EpisodeFileFailure>
    {
        if let known = transcripts.value(for: link) { return .success(known) }
        let result = await read(link, maxBytes: PodcastTranscript.maxBytes, what: "transcript") {
            bytes throws(TranscriptError) in try PodcastTranscript.parse(bytes, format: format)
        }
        if keep, case .success(let cues) = result { transcripts.keep(cues, for: link) }
        return result
    }

    /// The file at `link` fetched and read by `parse`, or why not, in the listener's words.
    private func read<Value, Failure: Error & CustomStringConvertible>(
        _ link: String, maxBytes: Int, what: String, parse: ([UInt8]) throws(Failure) -> Value
    ) async -> Result<Value, EpisodeFileFailure> {
        switch await bytes(at: link, maxBytes: maxBytes, what: what) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let bytes):
            do throws(Failure) {
                return .success(try parse(bytes))
            } catch {
                return .failure(EpisodeFileFailure(message: error.description))
            }
        }
    }

    private func bytes(at link: String, maxBytes: Int, what: String) async -> Result<[UInt8], EpisodeFileFailure> {
        guard let url = URL(string: link), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return .failure(EpisodeFileFailure(message: "the \(what) link is not a web address")) }
        do {
            guard case .fetched(let body) = try await fetcher.fetch(FetchRequest(url: url, maxBytes: maxBytes, timeout: timeout))
            else { return .failure(EpisodeFileFailure(message: "the \(what) could not be fetched")) }
            return .success(body.bytes)
        } catch {
            return .failure(EpisodeFileFailure(message: "the \(what) could not be fetched (\(error))"))
        }
    }

    /// Values by link, the oldest half forgotten when full.
    private struct Kept<Value> {
        var values: [String: Value] = [:]
        var order: [String] = []

        func value(for link: String) -> Value? { values[link] }

        mutating func keep(_ value: Value, for link: String) {
            if order.count >= EpisodeFiles.kept {
                for old in order.prefix(EpisodeFiles.kept / 2) { values[old] = nil }
                order.removeFirst(EpisodeFiles.kept / 2)
            }
            values[link] = value
            order.append(link)
        }
    }
}

/// Why an episode's chapters or transcript are not shown.
public struct EpisodeFileFailure: Error, Sendable, Hashable {
    public var message: String
}
