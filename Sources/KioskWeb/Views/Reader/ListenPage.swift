import Foundation
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// `/reader/listen`: the episodes begun and not finished and the unplayed ones, newest first,
/// each with its length and the time left ("23:10 left of 1:02:03 · on iPhone").
struct ListenPage: Sendable {
    var items: [EpisodePlaces.Item]
    var names: [SourceID: String]
    var drawings: EntryDrawings
    var folders: [String]
    var sequence: UInt64

    var page: Page {
        Page(
            title: "Listen", kind: "reader-listen", tab: .reader, sequence: sequence, folders: folders,
            content: [
                BackLink(href: ReaderLinks.home, label: "Reader").node,
                ScreenHeader(title: "Listen", titleID: "reader-title").node,
                el("p", .class("empty-state"), .id("listen-empty"), .flag("hidden", !items.isEmpty)) {
                    "Nothing to listen to: episodes of your podcasts show here until they are played."
                },
                el("ul", .id("listen-list"), .class("entries reader-entries listen-list"), .aria("label", "Listen")) {
                    items.map(row)
                },
            ])
    }

    private func row(_ item: EpisodePlaces.Item) -> Node {
        let entry = item.entry
        let drawn = EntryDrawing(style: drawings.drawing(of: entry.source), entry: entry.entry)
        return el("li", .class("reader-entry listen-entry" + (item.position == nil ? "" : " is-started")),
            .data("id", String(entry.id))) {
            el("a", .class("entry-link"), .href(ReaderLinks.entry(entry.source, key: entry.key))) {
                drawn.rowText(summary: nil)
                el("span", .class("entry-meta")) {
                    el("span", .class("entry-part")) { names[entry.source] ?? entry.source.rawValue }
                    DateText.node(entry.sortDate)
                }
                el("span", .class("listen-state")) { Self.state(of: item) }
                if let position = item.position, let duration = item.duration, duration > 0 {
                    el("progress", .class("listen-progress"), Attribute("max", String(Int(duration.rounded()))),
                        Attribute("value", String(Int(position.seconds.rounded()))), .aria("label", "Played")) {}
                }
            }
        }
    }

    /// "23:10 left of 1:02:03 · on iPhone", "Unplayed · 1:02:03", "Unplayed".
    static func state(of item: EpisodePlaces.Item) -> String {
        let length = item.duration.map { EpisodePlayer.clock(Int($0.rounded())) }
        guard let position = item.position else { return ["Unplayed", length].compactMap(\.self).joined(separator: " · ") }
        let place =
            if let duration = item.duration, let length {
                "\(EpisodePlayer.clock(Int(max(0, duration - position.seconds).rounded()))) left of \(length)"
            } else {
                "At \(EpisodePlayer.clock(Int(position.seconds)))"
            }
        return "\(place) · on \(position.device)"
    }
}
