import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport
import Testing

/// The per-app storage quota (SECURITY.md "Storage quota") against a real healthd: this test
/// process is the app that fills its quota (credential binding, so a refusal is read as the
/// status it is), and a separate sandboxed app is the bystander whose saves must still work.
/// Quotas are set small with `healthctl apps quota` so that filling one takes a few batches.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StorageQuotaEndToEndTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let filler = "org.test.filler"
    static let bystander = "org.test.bystander"

    static func batch(_ count: Int, round: Int) -> [UInt8] {
        let base = 1_700_000_000.0 + Double(round * count * 60)
        return SampleList((0 ..< count).map { index in
            let start = Date(timeIntervalSince1970: base + Double(index * 60))
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(60),
                                value: .quantity(Double(index), unit: "count"))
        }).wireBytes()
    }

    /// Saves batches of 20 until one is refused; the number of samples saved and the refusal.
    static func fill(_ client: RPCClient, fromRound: Int = 0) async throws -> (saved: Int, refusal: RPCStatus?) {
        var saved = 0
        for round in fromRound ..< fromRound + 500 {
            do {
                _ = try await client.unary(HealthStoreMethod.save.rawValue, batch(20, round: round))
                saved += 20
            } catch let status as RPCStatus {
                return (saved, status)
            }
        }
        return (saved, nil)
    }

    static func sampleCount(_ broker: BrokerProcess) async throws -> Int {
        let status = try await broker.healthctl(["status"])
        let line = status.stdout.split(separator: "\n").first { $0.hasPrefix("Samples:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }

    /// The exact bytes in `healthctl apps quota APP`'s "APP stores 1.2 KiB (1234 bytes) of …".
    static func usedBytes(_ line: String) -> Int64? {
        guard let stores = line.range(of: " stores ") else { return nil }
        let rest = line[stores.upperBound...]
        let digits = rest.prefix { $0.isNumber }
        if rest.dropFirst(digits.count).hasPrefix(" bytes") { return Int64(digits) }  // under 1 KiB
        guard let open = rest.range(of: "(") else { return nil }
        return Int64(rest[open.upperBound...].prefix { $0.isNumber })
    }

    static func setUp(_ broker: BrokerProcess) async throws -> RPCClient {
        try await broker.install(appID: filler, executable: Products.testProcessExecutable)
        try await broker.allowDirect(filler)
        try await broker.set(filler, "share", steps, allowed: true)
        try await broker.installClient(bystander)
        try await broker.set(bystander, "share", steps, allowed: true)
        return try RPCClient.connect(path: broker.appSocket)
    }

    @Test func anAppAtItsQuotaIsRefusedWholeOthersStillSaveAndDeletingMakesRoom() async throws {
        let broker = try BrokerProcess()
        let client = try await Self.setUp(broker)
        defer { client.close() }
        let set = try await broker.healthctl(["apps", "quota", Self.filler, "40KB"])
        #expect(set.status == 0 && set.stdout.contains("of its 39.1 KiB (40000 bytes) quota."), "\(set)")

        let (saved, refusal) = try await Self.fill(client)
        let status = try #require(refusal, "40 KB never filled: \(saved) samples saved")
        #expect(saved > 0)
        #expect(status.code == .resourceExhausted && status.healthKitCode == .errorDataSizeExceeded, "\(status)")
        #expect(status.message.contains(Self.filler) && status.message.contains("40000 bytes")
                && status.message.contains("healthctl apps quota \(Self.filler) SIZE"), "\(status.message)")
        // Refused whole: the store holds exactly the batches answered with success.
        #expect(try await Self.sampleCount(broker) == saved)
        // Refused again, and every further batch: the app cannot creep past.
        #expect(try await Self.fill(client, fromRound: 1_000).saved == 0)

        // Another app's saves still succeed (a separate, sandboxed process).
        let other = try await broker.runApp(Self.bystander, ["save", Self.steps, "5", "count", "1600000000", "1600000060"])
        #expect(other.okValue != nil, "\(other)")

        // The user sees use and limit.
        let shown = try await broker.healthctl(["apps", "quota", Self.filler])
        #expect(shown.status == 0 && shown.stdout.contains("of its 39.1 KiB (40000 bytes) quota."), "\(shown)")
        let listed = try await broker.healthctl(["apps", "list"])
        #expect(listed.stdout.contains("STORAGE") && listed.stdout.contains("39.1 KiB"), "\(listed)")

        // Deleting makes room: the app deletes its samples and saves again.
        _ = try await client.unary(HealthStoreMethod.deleteMatching.rawValue,
                                   MatchingDeletion(typeIdentifier: Self.steps, predicate: nil).wireBytes())
        let again = try await Self.fill(client, fromRound: 2_000)
        #expect(again.saved > 0 && again.refusal?.healthKitCode == .errorDataSizeExceeded, "\(again)")

        // `default` gives the default back: the app saves again at once.
        let reset = try await broker.healthctl(["apps", "quota", Self.filler, "default"])
        #expect(reset.status == 0 && reset.stdout.contains("16.0 GiB (17179869184 bytes) quota (the default)."), "\(reset)")
        _ = try await client.unary(HealthStoreMethod.save.rawValue, Self.batch(20, round: 3_000))
    }

    /// Every method `MethodTable` serves that stores data on an app's behalf is checked at the
    /// one choke point, before its request is even decoded: an app at a quota of 0 gets the
    /// quota's refusal for each, whatever bytes it sends.
    @Test func everyMeteredMethodIsRefusedAtTheQuotaBeforeItsWork() async throws {
        let broker = try BrokerProcess()
        let client = try await Self.setUp(broker)
        defer { client.close() }
        #expect(try await broker.healthctl(["apps", "quota", Self.filler, "0"]).status == 0)
        // The list `HealthBrokerTests.StorageEffectTests` holds `MethodTable.storage` to.
        let metered: [HealthStoreMethod] = [.save, .addSamplesToWorkout, .insertRouteData, .finishRoute, .relateWorkoutEffort,
                                            .beginAttachment, .appendAttachmentData, .finishAttachment]
        for method in metered {
            for payload: [UInt8] in [[], [0x0A, 0xFF, 0x01], Self.batch(1, round: 0)] {
                do {
                    _ = try await client.unary(method.rawValue, payload)
                    Issue.record("\(method) was served at a quota of 0")
                } catch let status as RPCStatus {
                    #expect(status.healthKitCode == .errorDataSizeExceeded, "\(method): \(status)")
                }
            }
        }
    }

    /// `healthctl apps quota` refuses what is not a size before it reaches healthd (the app keeps
    /// the default), and healthd refuses an option that is not one; 0 and the largest sizes are
    /// sizes.
    @Test func junkSizesAreRefusedAndExtremesAreKeptExactly() async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: Self.filler, executable: Products.testProcessExecutable)
        for size in ["-5", "1e308", "nan", "inf", "-inf", "12XB", "", " ", "1.5", "1.", ".5", "five", "5\u{FFFD}MB",
                     "99999999999999999999", "9223372036854775807TB", "8EiB", "0x10"] {
            let result = try await broker.healthctl(["apps", "quota", Self.filler, size])
            #expect(result.status != 0, "\(size.debugDescription) was accepted: \(result)")
        }
        let unchanged = try await broker.healthctl(["apps", "quota", Self.filler])
        #expect(unchanged.stdout.contains("(the default)."), "\(unchanged)")
        for (size, bytes) in [("0", "0 bytes"), ("9223372036854775807", "(9223372036854775807 bytes)"), ("1.5KiB", "(1536 bytes)")] {
            let result = try await broker.healthctl(["apps", "quota", Self.filler, size])
            #expect(result.status == 0, "\(size): \(result)")
            #expect(result.stdout.contains(bytes), "\(size): \(result)")
        }
        let refused = try await ProcessRun.run(Products.path("healthd"), ["--store", broker.root + "/other", "--socket-dir", broker.root + "/o",
                                                                          "--app-write-floor", "1e308"], timeout: 30)
        #expect(refused.status != 0 && refused.stderr.contains("--app-write-floor"), "\(refused)")
    }

    /// While the store is locked the pending journal is held to the same quota: the app's saves
    /// are refused once what it journaled reaches its limit, a bystander's are still journaled,
    /// and after the unlock the merged use is within the quota plus one admitted batch's excess.
    @Test func theLockedStoresJournalIsHeldToTheQuota() async throws {
        let broker = try BrokerProcess()
        let client = try await Self.setUp(broker)
        defer { client.close() }
        #expect(try await broker.healthctl(["apps", "quota", Self.filler, "40KB"]).status == 0)
        // Known before the lock: the use read from the open store (0 here) is what the lock keeps.
        _ = try await client.unary(HealthStoreMethod.save.rawValue, Self.batch(20, round: 0))
        #expect(try await broker.healthctl(["lock"]).status == 0)
        let (saved, refusal) = try await Self.fill(client, fromRound: 1)
        let status = try #require(refusal, "the journal grew past the quota: \(saved) samples journaled")
        #expect(status.healthKitCode == .errorDataSizeExceeded && saved > 0, "\(status), \(saved)")
        let other = try await broker.runApp(Self.bystander, ["save", Self.steps, "5", "count", "1600000000", "1600000060"])
        #expect(other.okValue != nil, "\(other)")
        #expect(try await broker.healthctl(["unlock"]).status == 0)
        #expect(try await Self.sampleCount(broker) == 20 + saved + 1, "every journaled save is merged")
        let used = try #require(Self.usedBytes(try await broker.healthctl(["apps", "quota", Self.filler]).stdout))
        print("storage use after merging a journal filled to a 40 KB quota: \(used) bytes")
        #expect(used <= 2 * 40_000, "the merged journal took \(used) bytes of a 40 KB quota")
        // Open again, the stored use decides: at most what is left of the quota is admitted.
        let after = try await Self.fill(client, fromRound: 5_000)
        #expect(after.refusal?.healthKitCode == .errorDataSizeExceeded && Int64(after.saved) * 100 <= max(0, 40_000 - used) + 4_000,
                "\(after.saved) saved after the merge at \(used) bytes")
    }

    /// Below the disk-free floor no app writes, whatever its quota, while the user's own
    /// `healthctl add` still does (healthd --app-write-floor set above any disk's free space).
    @Test func belowTheDiskFloorAppsAreRefusedButTheUserStillAdds() async throws {
        let broker = try BrokerProcess(extraArguments: ["--app-write-floor", "7EiB"])
        let client = try await Self.setUp(broker)
        defer { client.close() }
        do {
            _ = try await client.unary(HealthStoreMethod.save.rawValue, Self.batch(1, round: 0))
            Issue.record("an app saved below the disk floor")
        } catch let status as RPCStatus {
            #expect(status.healthKitCode == .errorDataSizeExceeded && status.message.contains("free"), "\(status)")
        }
        let bystander = try await broker.runApp(Self.bystander, ["save", Self.steps, "5", "count", "1600000000", "1600000060"])
        #expect(bystander.errorCode == HKError.Code.errorDataSizeExceeded.rawValue, "\(bystander)")
        let added = try await broker.healthctl(["add", "stepCount", "12", "count", "--start", "2024-01-01T08:00"])
        #expect(added.status == 0, "the user's own add was refused below the floor: \(added)")
        let status = try await broker.healthctl(["status"])
        #expect(status.stdout.contains("App storage:"), "\(status)")
    }
}
