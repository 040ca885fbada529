import Foundation
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
@testable import KioskWeb
import Testing

/// The live broadcaster on its own: hub events in, numbered frames out, replay and resync,
/// the last opened headline, slow clients.
@Suite struct LiveBroadcasterTests {
    @Test func aNewClientGetsThePreambleThenEveryEventInOrder() async throws {
        try await withBroadcaster { b in
            let (_, frames) = await b.live.subscribe(after: nil)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            try await b.publish(.changed(.business, [SampleEntries.plain(1)]))
            try await b.publish(.checking(.business))
            try await b.publish(.idle(.business))
            try await b.publish(.failed(.business, .unreadable("broken feed")))
            try await b.publish(.changed(.business, [SampleEntries.plain(2), SampleEntries.plain(1)]))
            let all = try await eventually { await log.ids.count == 5 }
            try #require(all)

            let first = try #require(await log.frames.first)
            #expect(first.id == nil)
            #expect(String(buffer: first.bytes) == "retry: 2000\n\n")
            let events = await log.events
            #expect(events.map(\.id) == [1, 2, 3, 4, 5])
            #expect(events.map(\.event) == ["changed", "activity", "activity", "failed", "changed"])
            for event in events {
                #expect(event.text.hasSuffix("\n\n"))
                #expect(!(event.data ?? "").contains("\n"), "one line of JSON")
            }

            let changed = events[0].json
            #expect(changed["source"] as? String == "business")
            #expect(changed["name"] as? String == "Business")
            #expect(changed["count"] as? Int == 1)
            #expect(changed["added"] as? Int == 1)
            let diff = try #require(changed["diff"] as? [String: Any])
            #expect(diff["order"] as? [String] == ["count"])
            #expect(diff["rows"] as? [String: String] == ["count": "<li>business 1</li>"])
            #expect(diff["removed"] as? [String] == [])
            #expect(changed["detectedAt"] as? Int != nil)
            #expect(events[1].json["checking"] as? Bool == true)
            #expect(events[2].json["checking"] as? Bool == false)
            #expect(events[3].json["message"] as? String == SourceError.unreadable("broken feed").description)
            let second = events[4].json
            #expect(second["count"] as? Int == 2)
            #expect(second["added"] as? Int == 1, "only plain(2) is new")

            let state = await b.live.snapshot()
            #expect(state.sequence == 5)
            #expect(state.entries[.business]?.count == 2)
            #expect(state.failures[.business] == nil, "a change clears the failure")
        }
    }

    @Test func theFirstSnapshotIsStateNotAnEvent() async throws {
        let hub = EventHub()
        await hub.publish(.changed(.business, [SampleEntries.plain(1)]))
        await hub.publish(.checking(.business))
        try await withBroadcaster(hub: hub) { b in
            let loaded = try await eventually { await b.live.snapshot().entries[.business]?.count == 1 }
            #expect(loaded)
            let state = await b.live.snapshot()
            #expect(state.sequence == 0, "what was there before start is no event")
            #expect(state.checking == [.business])
        }
    }

    @Test func aClientResumingAfterNGetsExactlyTheFramesAfterN() async throws {
        try await withBroadcaster { b in
            let (_, fromStart) = await b.live.subscribe(after: nil)
            let (everything, everythingReader) = FrameLog.collecting(fromStart)
            defer { everythingReader.cancel() }
            for number in 1...5 { try await b.publishActivity(number) }

            let (_, frames) = await b.live.subscribe(after: 2)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let replayed = try await eventually { await log.ids.count == 3 }
            try #require(replayed)
            try await b.publishActivity(6)
            let live = try await eventually { await log.ids.count == 4 }
            try #require(live)
            #expect(await log.ids == [3, 4, 5, 6])
            #expect(await log.frames.count == 5, "the preamble, three replayed, one live")

            // Replayed frames are the very bytes the others got.
            let got = try await eventually { await everything.ids.count == 6 }
            try #require(got)
            let original = await everything.frames.filter { ($0.id ?? 0) >= 3 }.map(\.bytes)
            #expect(await log.frames.filter { $0.id != nil }.map(\.bytes) == original)
        }
    }

    @Test func aClientThatIsUpToDateGetsNoCatchUp() async throws {
        try await withBroadcaster { b in
            for number in 1...3 { try await b.publishActivity(number) }
            let (_, frames) = await b.live.subscribe(after: 3)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            try await b.publishActivity(4)
            let got = try await eventually { await log.ids.count == 1 }
            try #require(got)
            #expect(await log.ids == [4])
            #expect(await log.frames.count == 2)
        }
    }

    @Test func aClientTooFarBehindGetsOneResync() async throws {
        try await withBroadcaster(replayLimit: 3) { b in
            try await b.publish(.changed(.business, [SampleEntries.plain(1), SampleEntries.plain(2)]))
            for number in 2...6 { try await b.publishActivity(number) }
            // Frames 4, 5 and 6 are kept: after 3 is still a replay, after 2 is not.
            let (_, kept) = await b.live.subscribe(after: 3)
            let (keptLog, keptReader) = FrameLog.collecting(kept)
            defer { keptReader.cancel() }
            let replayed = try await eventually { await keptLog.ids.count == 3 }
            #expect(replayed)
            #expect(await keptLog.ids == [4, 5, 6])

            let (_, frames) = await b.live.subscribe(after: 2)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let resynced = try await eventually { await log.ids.count == 1 }
            try #require(resynced)
            try await b.publishActivity(7)
            let next = try await eventually { await log.ids.count == 2 }
            try #require(next)
            let events = await log.events
            #expect(events.map(\.event) == ["resync", "activity"])
            #expect(events.map(\.id) == [6, 7])
            let resync = events[0].json
            #expect(resync["lists"] as? [String: String] == ["business": "<li>business 2</li>"])
            #expect(resync["checking"] as? [String] == [])
            #expect(resync["failures"] as? [String: String] == [:])
        }
    }

    @Test func aClientFromTheFutureGetsOneResync() async throws {
        // After a server restart the browser's Last-Event-ID is ahead of the new sequence.
        try await withBroadcaster { b in
            try await b.publish(.checking(.business))
            try await b.publish(.failed(.business, .unreadable("down")))
            let (_, frames) = await b.live.subscribe(after: 9_000)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let resynced = try await eventually { await log.ids.count == 1 }
            try #require(resynced)
            try await b.publish(.idle(.business))
            let next = try await eventually { await log.ids.count == 2 }
            try #require(next)
            let events = await log.events
            #expect(events.map(\.event) == ["resync", "activity"])
            #expect(events.map(\.id) == [2, 3])
            #expect(events[0].json["checking"] as? [String] == ["business"])
            #expect(events[0].json["failures"] as? [String: String] == ["business": SourceError.unreadable("down").description])
        }
    }

    @Test func aBurstOfHubEventsEndsOnTheHubsState() async throws {
        // More events at once than the broadcaster's hub buffer (4096): whether it keeps up or is
        // handed a resync, it ends where the hub is.
        let hub = EventHub()
        try await withBroadcaster(hub: hub) { b in
            for number in 0..<5000 { await hub.publish(.changed(.business, [SampleEntries.plain(number)])) }
            let settled = try await eventually(within: .seconds(30)) {
                await b.live.snapshot().entries[.business]?.first?.title == "Plain headline 4999"
            }
            #expect(settled)
        }
    }

    @Test func recordOpenedBroadcastsAndStores() async throws {
        try await withBroadcaster { b in
            let (_, frames) = await b.live.subscribe(after: nil)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            await b.live.recordOpened(title: #"Title <b>"quoted"</b>"#, path: "/news/business/abc", at: date)
            let got = try await eventually { await log.ids.count == 1 }
            try #require(got)
            let event = try #require(await log.events.first)
            #expect(event.event == "opened")
            #expect(event.id == 1)
            #expect(event.json["title"] as? String == #"Title <b>"quoted"</b>"#)
            #expect(event.json["path"] as? String == "/news/business/abc")
            let stored = try await b.store.lastOpened(user: .owner)
            #expect(stored == OpenedHeadline(title: #"Title <b>"quoted"</b>"#, path: "/news/business/abc", openedAt: date))
            #expect(await b.live.lastOpened(for: .owner) == stored)
        }
    }

    /// Many tabs opening headlines at once: the last headline every page was told is the one
    /// remembered (and resynced), and the same headline opened twice is announced once.
    @Test func concurrentOpensLeaveThePagesAndTheMemoryAgreeing() async throws {
        try await withBroadcaster { b in
            let (_, frames) = await b.live.subscribe(after: nil)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let live = b.live
            await withTaskGroup(of: Void.self) { group in
                for number in 0..<20 {
                    group.addTask { await live.recordOpened(title: "Headline \(number)", path: "/news/business/\(number)") }
                    group.addTask { await live.recordOpened(title: "Headline \(number)", path: "/news/business/\(number)") }
                }
            }
            let told = try await eventually { await log.events.filter { $0.event == "opened" }.count >= 20 }
            try #require(told)
            let opened = await log.events.filter { $0.event == "opened" }
            // Every headline is told at least once (a twin whose headline is still the last is
            // not told again), and the last one told is the one remembered.
            #expect(opened.count <= 40)
            let lastTold = opened.last?.json["path"] as? String
            #expect(await live.lastOpened(for: .owner)?.path == lastTold)
            #expect(try await b.store.lastOpened(user: .owner)?.path != nil)
        }
    }

    @Test func theLastOpenedHeadlineComesBackFromTheStoreAfterARestart() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let headline = OpenedHeadline(title: "Kept", path: "/news/business/kept", openedAt: Date(timeIntervalSince1970: 1))
        try await store.setLastOpened(headline, user: .owner)
        try await withBroadcaster(store: store) { b in
            let loaded = try await eventually { await b.live.lastOpened(for: .owner) == headline }
            #expect(loaded)
            // A client too far behind gets it in its resync.
            let (_, frames) = await b.live.subscribe(after: 5)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let got = try await eventually { await log.ids.count == 1 }
            try #require(got)
            let opened = await log.events.first?.json["opened"] as? [String: String]
            #expect(opened == ["title": "Kept", "path": "/news/business/kept"])
        }
    }

    @Test func aClientThatNeverReadsIsDisconnectedWhileOthersKeepReceiving() async throws {
        try await withBroadcaster(clientBuffer: 4) { b in
            let (_, slowFrames) = await b.live.subscribe(after: nil)
            let (_, fastFrames) = await b.live.subscribe(after: nil)
            let (fast, fastReader) = FrameLog.collecting(fastFrames)
            defer { fastReader.cancel() }
            #expect(await b.live.clientCount == 2)
            for number in 1...12 {
                try await b.publishActivity(number)
                // One frame at a time, so the fast client never falls behind itself.
                let received = try await eventually { await fast.ids.count == number }
                try #require(received, "the reading client got frame \(number)")
            }
            let dropped = try await eventually { await b.live.clientCount == 1 }
            #expect(dropped, "the client that never read was disconnected")
            #expect(await fast.ids == Array(1...12))
            #expect(await fast.ended == false)

            // The slow client's stream holds what fit in its buffer, then ends: its browser reconnects.
            let (slow, slowReader) = FrameLog.collecting(slowFrames)
            defer { slowReader.cancel() }
            let ended = try await eventually { await slow.ended }
            #expect(ended)
            #expect(await slow.frames.count == 4)
            #expect(await slow.ids == [1, 2, 3])
        }
    }

    @Test func unsubscribeRemovesTheClient() async throws {
        try await withBroadcaster { b in
            let (first, firstFrames) = await b.live.subscribe(after: nil)
            let (_, secondFrames) = await b.live.subscribe(after: nil)
            let (firstLog, firstReader) = FrameLog.collecting(firstFrames)
            let (secondLog, secondReader) = FrameLog.collecting(secondFrames)
            defer {
                firstReader.cancel()
                secondReader.cancel()
            }
            #expect(await b.live.clientCount == 2)
            await b.live.unsubscribe(first)
            #expect(await b.live.clientCount == 1)
            let ended = try await eventually { await firstLog.ended }
            #expect(ended, "its stream ends")
            try await b.publishActivity(1)
            let got = try await eventually { await secondLog.ids == [1] }
            #expect(got)
            #expect(await firstLog.ids.isEmpty)
            await b.live.unsubscribe(first)  // twice is harmless
            #expect(await b.live.clientCount == 1)
        }
    }

    @Test func aClientThatStopsReadingIsForgotten() async throws {
        try await withBroadcaster { b in
            let (_, frames) = await b.live.subscribe(after: nil)
            let (_, reader) = FrameLog.collecting(frames)
            #expect(await b.live.clientCount == 1)
            reader.cancel()
            _ = await reader.value
            let gone = try await eventually(within: .seconds(10)) { await b.live.clientCount == 0 }
            #expect(gone)
        }
    }

    @Test func stoppingTheBroadcasterEndsEveryStream() async throws {
        let hub = EventHub()
        let live = LiveBroadcaster(hub: hub, store: try SQLiteStore.inMemoryDatabase(), names: [:], renderList: markerRenderer, logger: .quiet)
        let running = Task { try await live.run() }
        try await waitUntilListening(live)
        let (_, frames) = await live.subscribe(after: nil)
        let (log, reader) = FrameLog.collecting(frames)
        defer { reader.cancel() }
        running.cancel()
        _ = await running.result
        let ended = try await eventually { await log.ended }
        #expect(ended)
        #expect(await live.clientCount == 0)
    }

    @Test func heartbeatsAreCommentsWithoutAnID() async throws {
        try await withBroadcaster(heartbeatInterval: .milliseconds(50)) { b in
            let (_, frames) = await b.live.subscribe(after: nil)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let beat = try await eventually { await log.frames.count >= 3 }
            try #require(beat)
            let beats = await log.frames.dropFirst()
            #expect(beats.allSatisfy { $0.id == nil && String(buffer: $0.bytes) == ": heartbeat\n\n" })
            #expect(await b.live.snapshot().sequence == 0, "heartbeats are not numbered")
        }
    }

    /// A reconnecting client missing more frames than its buffer holds must not silently lose
    /// the excess: it should get every missed frame or a resync, never a gap.
    @Test func aCatchUpLongerThanTheClientBufferIsNeverAGap() async throws {
        try await withBroadcaster(clientBuffer: 4, replayLimit: 512) { b in
            for number in 1...10 { try await b.publishActivity(number) }
            let (_, frames) = await b.live.subscribe(after: 0)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            try await b.publishActivity(11)
            let settled = try await eventually(within: .seconds(5)) { await log.ids.last == 11 }
            #expect(settled)
            let events = await log.events
            let gapless = events.map(\.id) == Array(1...11).map { Optional(UInt64($0)) }
            let resynced = events.first?.event == "resync" && events.last?.id == 11
            #expect(gapless || resynced, "got \(events.map { "\($0.id ?? 0):\($0.event ?? "")" })")
        }
    }

    /// A browser whose Last-Event-ID came from the previous run must be resynced, not told it is
    /// up to date or replayed the new run's frames after its old number. Each run counts on from
    /// its start time in ms, so an old id is always older than the new run's first event.
    @Test(arguments: [UInt64(3), 2])
    func aClientFromBeforeARestartIsResynced(lastSeenBeforeRestart: UInt64) async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        // The first run: the browser saw frames up to `lastSeenBeforeRestart`.
        try await withBroadcaster(store: store, firstSequence: 0) { before in
            for number in 1...Int(lastSeenBeforeRestart) { try await before.publishActivity(number) }
        }
        // The restarted server (new hub, same store, started later) has news of its own by the
        // time the browser reconnects.
        try await withBroadcaster(store: store, firstSequence: 1_000) { after in
            try await after.publish(.changed(.business, [SampleEntries.plain(1)]))
            try await after.publish(.checking(.business))
            try await after.publish(.idle(.business))
            let (_, frames) = await after.live.subscribe(after: lastSeenBeforeRestart)
            let (log, reader) = FrameLog.collecting(frames)
            defer { reader.cancel() }
            let got = try await eventually(within: .seconds(3)) { await !log.ids.isEmpty }
            #expect(got, "the reconnecting browser hears nothing of the new run")
            let events = await log.events
            #expect(events.first?.event == "resync", "got \(events.map { "\($0.id ?? 0):\($0.event ?? "")" })")
        }
    }
}
