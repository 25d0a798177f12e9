import Foundation
import HealthModel
import Testing
import TestSupport

/// Per-object read grants (vision prescriptions) through anchored and observer queries, end to
/// end: real healthd, the user answering with a real `healthctl object-requests --answer`, and
/// the reading apps as separate sandboxed processes.
///
/// Apple: after per-object authorization "the user can then select the individual samples that
/// the app has permission to read" (developer.apple.com/documentation/healthkit/hkhealthstore/
/// requestperobjectreadauthorization(for:predicate:completion:)), and an anchored query returns
/// "any samples and deleted objects … added or removed since the anchor"
/// (developer.apple.com/documentation/healthkit/hkanchoredobjectquery) — so the app's next
/// anchored batch, its running query's update handler and its observer see a newly granted
/// prescription, and the deletion of a prescription it may read. Nothing of the kind reaches an
/// app that could not read it, nor one whose grant the user revoked (DESIGN.md §7.3: as if the
/// object had never been stored).
@Suite(.serialized, .timeLimit(.minutes(10))) struct PerObjectGrantFeedEndToEndTests {
    static let vision = HKVisionPrescriptionTypeIdentifier

    /// `reader` asks for per-object read access and the user allows the saver's glasses
    /// prescription alone; returns its UUID as healthctl lists it.
    static func grantGlasses(_ broker: BrokerProcess, saver: String, reader: String) async throws -> String? {
        async let asked = broker.runApp(reader, ["snippet", "vision-per-object"])
        // Wait for the request to reach healthd (a hang guard, not a timing assertion).
        let listing = try await broker.pendingObjectRequests(timeout: 60)
        let lines = listing.split(separator: "\n").map(String.init)
        let requestID = lines.first { $0.hasPrefix("Request ") }.flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
        let glasses = lines.first { $0.hasPrefix("  ") && $0.contains("R SPH -2.25 D") }
            .flatMap { $0.split(separator: " ").first }.map(String.init)
        guard let requestID, let glasses else {
            Issue.record("no request or glasses candidate: \(listing)")
            _ = try? await asked
            return nil
        }
        let answer = try await broker.healthctl(["object-requests", "--answer", String(requestID), "--allow", glasses])
        #expect(answer.status == 0, "\(answer)")
        #expect(try await asked.okValue == "1 HKGlassesPrescription")
        return glasses
    }

    /// A broker where `org.test.feed-owner` saved its three prescriptions, a reader and a
    /// bystander installed, and a folder for their anchors.
    static func setUp() async throws -> (BrokerProcess, String, String, String, String) {
        let broker = try BrokerProcess()
        let saver = try await broker.installClient("org.test.feed-owner")
        try await broker.set(saver, "share", vision, allowed: true)
        #expect(try await broker.runApp(saver, ["snippet", "vision-save"]).okValue == "saved")
        let reader = try await broker.installClient("org.test.feed-reader")
        let bystander = try await broker.installClient("org.test.feed-bystander")
        return (broker, saver, reader, bystander, try makeAppFilesDirectory(under: broker.root))
    }

    @Test func aGrantAndTheObjectsDeletionReachTheGrantedAppsQueriesOnly() async throws {
        let (broker, saver, reader, bystander, files) = try await Self.setUp()
        let readerAnchor = files + "/reader-anchor", bystanderAnchor = files + "/bystander-anchor"
        for (app, anchor) in [(reader, readerAnchor), (bystander, bystanderAnchor)] {
            let initial = try await broker.runApp(app, ["anchored", Self.vision, "--anchor-file", anchor, "--archived"], writable: files)
            #expect(initial.anchoredDeliveries.map(\.added) == [[]], "nothing before a grant: \(initial)")
        }
        // Running queries of the reader: an anchored one with an update handler, an observer.
        let live = try LiveApp(reader, ["anchored", Self.vision, "--updates", "2"], adminSocket: broker.adminSocket)
        let observer = try LiveApp(reader, ["observe", Self.vision, "--count", "3"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery initial 0 0", timeout: 60))
        #expect(try await observer.waitForLine("update 1", timeout: 60))

        let granted = try #require(try await Self.grantGlasses(broker, saver: saver, reader: reader))
        // Hang guards only: each line must come; without the grant in the feed none ever did.
        #expect(try await live.waitForLine("delivery update 1 0", timeout: 60), "\(live.lines)")
        #expect(try await observer.waitForLine("update 2", timeout: 60), "\(observer.lines)")
        let next = try await broker.runApp(reader, ["anchored", Self.vision, "--anchor-file", readerAnchor, "--archived"], writable: files)
        #expect(next.anchoredDeliveries.map(\.added) == [["-"]], "the newly granted prescription, once: \(next)")
        #expect(next.lines.contains { $0.lowercased().hasPrefix("added \(granted.lowercased())") }, "\(next)")
        let again = try await broker.runApp(reader, ["anchored", Self.vision, "--anchor-file", readerAnchor, "--archived"], writable: files)
        #expect(again.anchoredDeliveries.map(\.added) == [[]], "\(again)")

        #expect(try await broker.runApp(saver, ["delete", Self.vision, granted]).okValue == "1")
        #expect(try await live.waitForLine("delivery update 0 1", timeout: 60), "\(live.lines)")
        #expect(try await observer.waitForLine("update 3", timeout: 60), "\(observer.lines)")
        let deleted = try await broker.runApp(reader, ["anchored", Self.vision, "--anchor-file", readerAnchor, "--archived"], writable: files)
        #expect(deleted.anchoredDeliveries.map { $0.deletedUUIDs.map { $0.lowercased() } } == [[granted.lowercased()]], "\(deleted)")
        #expect(deleted.anchoredDeliveries.map(\.added) == [[]])

        // The bystander could never read it: neither the grant nor the deletion reaches it.
        let bystanderNext = try await broker.runApp(bystander, ["anchored", Self.vision, "--anchor-file", bystanderAnchor, "--archived"],
                                                    writable: files)
        #expect(bystanderNext.anchoredDeliveries.map(\.added) == [[]], "\(bystanderNext)")
        #expect(bystanderNext.anchoredDeliveries.map(\.deletedUUIDs) == [[]], "\(bystanderNext)")
        #expect(await live.finish(timeout: 60).status == 0)
        #expect(await observer.finish(timeout: 60).status == 0)
    }

    /// Granted, seen, revoked, then deleted: the app's continued and fresh anchored queries show
    /// nothing of it — neither the revocation nor the deletion (as if it never existed).
    @Test func aRevokedObjectsDeletionIsNotReported() async throws {
        let (broker, saver, reader, _, files) = try await Self.setUp()
        let anchor = files + "/reader-anchor"
        let granted = try #require(try await Self.grantGlasses(broker, saver: saver, reader: reader))
        let seen = try await broker.runApp(reader, ["anchored", Self.vision, "--anchor-file", anchor, "--archived"], writable: files)
        #expect(seen.anchoredDeliveries.map(\.added) == [["-"]], "\(seen)")
        #expect(try await broker.healthctl(["object-grants", reader, "--revoke", granted]).status == 0)
        let revoked = try await broker.runApp(reader, ["anchored", Self.vision, "--anchor-file", anchor, "--archived"], writable: files)
        #expect(revoked.anchoredDeliveries.map(\.added) == [[]], "\(revoked)")
        #expect(revoked.anchoredDeliveries.map(\.deletedUUIDs) == [[]], "\(revoked)")

        #expect(try await broker.runApp(saver, ["delete", Self.vision, granted]).okValue == "1")
        let afterDeletion = try await broker.runApp(reader, ["anchored", Self.vision, "--anchor-file", anchor, "--archived"], writable: files)
        #expect(afterDeletion.anchoredDeliveries.map(\.deletedUUIDs) == [[]], "\(afterDeletion)")
        let fresh = try await broker.runApp(reader, ["anchored", Self.vision, "--anchor-file", files + "/fresh", "--archived"], writable: files)
        #expect(fresh.anchoredDeliveries.map(\.added) == [[]], "\(fresh)")
        #expect(fresh.anchoredDeliveries.map(\.deletedUUIDs) == [[]], "\(fresh)")
    }

    /// A running anchored query holding the granted prescription: the revocation and the later
    /// deletion send nothing; the app's own save that follows is the one update it gets.
    @Test func aRunningQueryIsToldNothingOfARevocationOrTheLaterDeletion() async throws {
        let (broker, saver, reader, _, _) = try await Self.setUp()
        try await broker.set(reader, "share", Self.vision, allowed: true)
        let granted = try #require(try await Self.grantGlasses(broker, saver: saver, reader: reader))
        let live = try LiveApp(reader, ["anchored", Self.vision, "--updates", "1"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery initial 1 0", timeout: 60), "\(live.lines)")
        #expect(try await broker.healthctl(["object-grants", reader, "--revoke", granted]).status == 0)
        #expect(try await broker.runApp(saver, ["delete", Self.vision, granted]).okValue == "1")
        #expect(try await broker.runApp(reader, ["snippet", "vision-save"]).okValue == "saved")
        // The query exits after its first update: had the revocation or the deletion sent one,
        // that would be it, and the own save's would never come.
        #expect(try await live.waitForLine("delivery update 3 0", timeout: 60), "\(live.lines)")
        #expect(live.anchoredDeliveries.map(\.kind) == ["initial", "update"], "\(live.lines)")
        #expect(await live.finish(timeout: 60).status == 0)
    }
}
