import Foundation
import Testing

/// HKAnchoredObjectQuery through the whole stack: anchors that survive new processes and a
/// healthd restart, deletions from sync replacements, long-running updates, revocation while a
/// query runs, and anchors that only work for the app and type they were issued for.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AnchoredQueryEndToEndTests {
    let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    let mindful = "HKCategoryTypeIdentifierMindfulSession"

    /// `save-category` arguments for one sleep sample; with `sync`, a synced one (identifier, version).
    func sleepSample(value: Int, minute: Int, sync: (String, Int)? = nil) -> [String] {
        let start = 1_700_000_000 + minute * 60
        var arguments = ["save-category", sleep, "\(value)", "\(start)", "\(start + 60)"]
        if let sync {
            arguments += ["--meta", "HKMetadataKeySyncIdentifier=string:\(sync.0)", "--meta", "HKMetadataKeySyncVersion=number:\(sync.1)"]
        }
        return arguments
    }

    @Test func anAnchorCarriesAcrossProcessesDeletionsAndAHealthdRestart() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let app = "org.test.anchored"
        try await healthd.installClient(app)
        try await healthd.set(app, "share", sleep, allowed: true)
        try await healthd.set(app, "read", sleep, allowed: true)
        let files = try makeAppFilesDirectory(under: healthd.root)
        // Kept the way HealthKit apps keep anchors: NSKeyedArchiver with secure coding.
        let anchorFile = files + "/anchor"

        #expect(try await healthd.runApp(app, sleepSample(value: 0, minute: 0, sync: ("night", 1))).okValue != nil)
        #expect(try await healthd.runApp(app, sleepSample(value: 1, minute: 10)).okValue != nil)
        let first = try await healthd.runApp(app, ["anchored", sleep, "--anchor-file", anchorFile, "--archived"], writable: files)
        #expect(first.anchoredDeliveries.map(\.added) == [["0", "1"]], "\(first)")

        // A higher sync version replaces the first sample: one addition, one deletion.
        #expect(try await healthd.runApp(app, sleepSample(value: 2, minute: 0, sync: ("night", 2))).okValue != nil)
        let second = try await healthd.runApp(app, ["anchored", sleep, "--anchor-file", anchorFile, "--archived"], writable: files)
        #expect(second.anchoredDeliveries.map(\.added) == [["2"]], "\(second)")
        #expect(second.anchoredDeliveries.map(\.deleted) == [["night 1"]])

        healthd.stop()
        try healthd.start()
        #expect(try await healthd.runApp(app, sleepSample(value: 3, minute: 20)).okValue != nil)
        let afterRestart = try await healthd.runApp(app, ["anchored", sleep, "--anchor-file", anchorFile, "--archived"], writable: files)
        #expect(afterRestart.anchoredDeliveries.map(\.added) == [["3"]], "\(afterRestart)\n\(healthd.log)")
        #expect(afterRestart.anchoredDeliveries.map(\.deleted) == [[]])
        let nothingNew = try await healthd.runApp(app, ["anchored", sleep, "--anchor-file", anchorFile, "--archived"], writable: files)
        #expect(nothingNew.anchoredDeliveries.map(\.added) == [[]])

        // A limit counts samples and deleted objects together; walking with it sees each once.
        let walkFile = files + "/walk"
        var walked: [String] = []
        for _ in 0..<6 {
            let step = try await healthd.runApp(app, ["anchored", sleep, "--anchor-file", walkFile, "--limit", "1"], writable: files)
            let delivery = try #require(step.anchoredDeliveries.first, "\(step)")
            #expect(delivery.added.count + delivery.deleted.count <= 1)
            walked += delivery.deleted.map { "deleted " + $0 } + delivery.added.map { "added " + $0 }
        }
        #expect(walked == ["added 1", "deleted night 1", "added 2", "added 3"])
    }

    @Test func anAnchorWorksOnlyForTheAppAndTypeItWasIssuedFor() async throws {
        let broker = try BrokerProcess()
        let owner = try await broker.installClient("org.test.anchor-owner")
        let other = try await broker.installClient("org.test.anchor-other")
        let files = try makeAppFilesDirectory(under: broker.root)
        let anchorFile = files + "/owner-anchor"
        let issued = try await broker.runApp(owner, ["anchored", sleep, "--anchor-file", anchorFile], writable: files)
        #expect(issued.okValue == "1", "\(issued)")
        let original = try Data(contentsOf: URL(fileURLWithPath: anchorFile))

        let copied = files + "/copied-anchor"
        try original.write(to: URL(fileURLWithPath: copied))
        let byOther = try await broker.runApp(other, ["anchored", sleep, "--anchor-file", copied], writable: files)
        #expect(byOther.errorCode == 3, "\(byOther)")  // errorInvalidArgument
        #expect(byOther.stdout.contains("the anchor is not valid for this query"))

        let otherType = try await broker.runApp(owner, ["anchored", mindful, "--anchor-file", copied], writable: files)
        #expect(otherType.errorCode == 3, "\(otherType)")

        var tampered = original
        tampered[tampered.count / 2] ^= 0x01
        try tampered.write(to: URL(fileURLWithPath: copied))
        let altered = try await broker.runApp(owner, ["anchored", sleep, "--anchor-file", copied], writable: files)
        #expect(altered.stdout == byOther.stdout, "\(altered)")  // the same answer for every bad anchor
    }

    @Test func aLongRunningQueryGetsExactlyTheChangesMadeAfterItStarted() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.live")
        try await broker.set(app, "share", sleep, allowed: true)
        try await broker.set(app, "read", sleep, allowed: true)
        #expect(try await broker.runApp(app, sleepSample(value: 0, minute: 0)).okValue != nil)

        let live = try LiveApp(app, ["anchored", sleep, "--updates", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery initial 1 0"), "\(live.lines)")
        #expect(try await broker.runApp(app, sleepSample(value: 1, minute: 1)).okValue != nil)
        #expect(try await live.waitForLine("delivery update 1 0"), "\(live.lines)")
        // Another type changing does not wake it; a save of two samples is one update.
        #expect(try await broker.runApp(app, ["save-category", mindful, "0", "1700000000", "1700000060"]).errorCode != nil)
        #expect(try await broker.runApp(app, ["save-batch", "--category", sleep, "2", "1700000200", "1700000260",
                                              "--category", sleep, "3", "1700000300", "1700000360"]).okValue != nil)
        let result = await live.finish()
        #expect(result.okValue == "3", "\(result)")
        #expect(result.anchoredDeliveries.map(\.added) == [["0"], ["1"], ["2", "3"]])
        #expect(result.anchoredDeliveries.map(\.kind) == ["initial", "update", "update"])
    }

    @Test func aRevokedReadGrantAppliesToTheNextUpdateOfARunningQuery() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.revoked-reader")
        let writer = try await broker.installClient("org.test.other-writer")
        for app in [reader, writer] { try await broker.set(app, "share", sleep, allowed: true) }
        try await broker.set(reader, "read", sleep, allowed: true)

        let live = try LiveApp(reader, ["anchored", sleep, "--updates", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery initial 0 0"), "\(live.lines)")
        #expect(try await broker.runApp(writer, sleepSample(value: 1, minute: 1)).okValue != nil)
        #expect(try await live.waitForLine("delivery update 1 0"), "\(live.lines)")

        try await broker.set(reader, "read", sleep, allowed: false)
        // Hidden from now on: neither this save nor the replacement's deletion may reach the reader.
        #expect(try await broker.runApp(writer, sleepSample(value: 2, minute: 2, sync: ("w", 1))).okValue != nil)
        #expect(try await broker.runApp(writer, sleepSample(value: 3, minute: 2, sync: ("w", 2))).okValue != nil)
        #expect(try await broker.runApp(reader, sleepSample(value: 4, minute: 3)).okValue != nil)
        let result = await live.finish()
        #expect(result.okValue == "3", "\(result)")
        let deliveries = result.anchoredDeliveries
        #expect(deliveries.map(\.added) == [[], ["1"], ["4"]], "\(result)")
        #expect(deliveries.last?.addedSources == [reader])
        #expect(deliveries.last?.deleted == [])
    }
}
