import Foundation
import Testing

/// HKAnchoredObjectQuery over several types (`queryDescriptors:`) through the whole stack: one
/// feed in change order across the types, one anchor for the set, `limit` counted across them,
/// each type under the reader's own grant for it — a denied type's changes, additions and
/// deletions alike, never reach the app — and a revocation of one type while the query runs.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AnchoredMultiTypeEndToEndTests {
    let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    let mindful = "HKCategoryTypeIdentifierMindfulSession"
    var both: String { "\(sleep),\(mindful)" }

    /// `save-category` arguments for one sample of `type` (sleep values 1…5; mindful is always 0,
    /// so a delivery's values tell the types apart); with `sync`, a synced one.
    func sample(_ type: String, value: Int, minute: Int, sync: (String, Int)? = nil) -> [String] {
        let start = 1_700_000_000 + minute * 60
        var arguments = ["save-category", type, "\(value)", "\(start)", "\(start + 60)"]
        if let sync {
            arguments += ["--meta", "HKMetadataKeySyncIdentifier=string:\(sync.0)", "--meta", "HKMetadataKeySyncVersion=number:\(sync.1)"]
        }
        return arguments
    }

    /// Waits (polling; a hang guard, not a speed test) until `live` printed `count` updates.
    func waitForUpdates(_ live: LiveApp, _ count: Int) async throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if live.lines.filter({ $0.hasPrefix("delivery update") }).count >= count { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func save(_ broker: BrokerProcess, _ app: String, _ arguments: [String]) async throws {
        let saved = try await broker.runApp(app, arguments)
        #expect(saved.okValue != nil, "\(arguments): \(saved)")
    }

    @Test func oneAnchorCoversTheSetAndADeniedTypeContributesNothing() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.multi-reader")
        let writer = try await broker.installClient("org.test.multi-writer")
        for app in [reader, writer] {
            for type in [sleep, mindful] { try await broker.set(app, "share", type, allowed: true) }
        }
        try await broker.set(reader, "read", sleep, allowed: true)
        try await broker.set(reader, "read", mindful, allowed: false)
        try await save(broker, writer, sample(sleep, value: 1, minute: 0))
        try await save(broker, writer, sample(mindful, value: 0, minute: 1, sync: ("hidden", 1)))  // hidden from the reader
        try await save(broker, reader, sample(mindful, value: 0, minute: 2))  // its own: visible
        try await save(broker, writer, sample(sleep, value: 2, minute: 3, sync: ("night", 1)))

        let files = try makeAppFilesDirectory(under: broker.root)
        let anchorFile = files + "/set-anchor"
        let first = try await broker.runApp(reader, ["anchored", both, "--anchor-file", anchorFile], writable: files)
        // Change order across the types; the writer's mindful sample is not there.
        #expect(first.anchoredDeliveries.map(\.added) == [["1", "0", "2"]], "\(first)")
        #expect(first.anchoredDeliveries.map(\.addedSources) == [[writer, reader, writer]])

        // Replacements of both types: the sleep one is a visible addition and deletion, the
        // mindful one (another app's, whose type the reader may not read) nothing at all.
        try await save(broker, writer, sample(mindful, value: 0, minute: 1, sync: ("hidden", 2)))
        try await save(broker, writer, sample(sleep, value: 3, minute: 3, sync: ("night", 2)))
        let second = try await broker.runApp(reader, ["anchored", both, "--anchor-file", anchorFile], writable: files)
        #expect(second.anchoredDeliveries.map(\.added) == [["3"]], "\(second)")
        #expect(second.anchoredDeliveries.map(\.deleted) == [["night 1"]])
        // Only hidden changes since: an empty delivery, as if they never happened.
        try await save(broker, writer, sample(mindful, value: 0, minute: 5))
        let third = try await broker.runApp(reader, ["anchored", both, "--anchor-file", anchorFile], writable: files)
        #expect(third.anchoredDeliveries.map(\.added) == [[]], "\(third)")
        #expect(third.anchoredDeliveries.map(\.deleted) == [[]])

        // The anchor belongs to the set: the same types in another order continue it, one of
        // them alone does not.
        let reordered = try await broker.runApp(reader, ["anchored", "\(mindful),\(sleep)", "--anchor-file", anchorFile], writable: files)
        #expect(reordered.anchoredDeliveries.map(\.added) == [[]], "\(reordered)")
        let alone = try await broker.runApp(reader, ["anchored", sleep, "--anchor-file", anchorFile], writable: files)
        #expect(alone.errorCode == 3, "\(alone)")  // errorInvalidArgument

        // A limit counts across both types; walking with it sees every visible change once, in
        // the order of the whole feed.
        let whole = try await broker.runApp(reader, ["anchored", both])
        let wholeDelivery = try #require(whole.anchoredDeliveries.first, "\(whole)")
        let walkFile = files + "/walk"
        var walked: [String] = []
        for _ in 0..<5 {
            let step = try await broker.runApp(reader, ["anchored", both, "--anchor-file", walkFile, "--limit", "1"], writable: files)
            let delivery = try #require(step.anchoredDeliveries.first, "\(step)")
            #expect(delivery.added.count + delivery.deleted.count <= 1, "\(step)")
            walked += delivery.deleted.map { "deleted " + $0 } + delivery.added.map { "added " + $0 }
        }
        #expect(walked == ["added 1", "added 0", "deleted night 1", "added 3"], "whole feed: \(wholeDelivery)")
        #expect(wholeDelivery.added == ["1", "0", "3"])
    }

    @Test func revokingOneTypeUnderARunningQueryConfinesThatTypeOnly() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.multi-live-reader")
        let writer = try await broker.installClient("org.test.multi-live-writer")
        for app in [reader, writer] {
            for type in [sleep, mindful] { try await broker.set(app, "share", type, allowed: true) }
        }
        for type in [sleep, mindful] { try await broker.set(reader, "read", type, allowed: true) }

        let live = try LiveApp(reader, ["anchored", both, "--updates", "3"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery initial 0 0"), "\(live.lines)")
        try await save(broker, writer, sample(mindful, value: 0, minute: 0))
        #expect(try await live.waitForLine("delivery update 1 0"), "\(live.lines)")

        try await broker.set(reader, "read", mindful, allowed: false)
        // From now on the writer's mindful samples are hidden; its sleep samples are not, and
        // the reader's own mindful samples stay its own.
        try await save(broker, writer, sample(mindful, value: 0, minute: 1))
        try await save(broker, writer, sample(sleep, value: 4, minute: 2))
        #expect(try await waitForUpdates(live, 2), "\(live.lines)")
        try await save(broker, reader, sample(mindful, value: 0, minute: 3))
        let result = await live.finish()
        #expect(result.okValue == "4", "\(result)")
        let deliveries = result.anchoredDeliveries
        #expect(deliveries.map(\.added) == [[], ["0"], ["4"], ["0"]], "\(result)")
        #expect(deliveries.map(\.addedSources) == [[], [writer], [writer], [reader]])
        #expect(deliveries.map(\.kind) == ["initial", "update", "update", "update"])
    }
}
