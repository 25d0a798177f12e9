import Foundation
import Glibc
import Synchronization
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import TestSupport
import Testing

/// The storage count lives in the store, written in each save's transaction by triggers: it
/// survives a restart as it was, and a SIGKILL in the middle of saves leaves it equal to a recount
/// of the rows that were committed (SECURITY.md "Storage quota").
@Suite(.timeLimit(.minutes(10)), .serialized) struct StorageQuotaRestartEndToEndTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let filler = "org.test.filler"

    static func setUp(_ healthd: RestartableHealthd) async throws {
        let manifest = healthd.root + "/filler.json"
        try JSONSerialization.data(withJSONObject: [
            "id": filler, "displayName": "Filler", "executable": Products.testProcessExecutable, "version": "1",
            "NSHealthUpdateUsageDescription": "writes for a test",
        ]).write(to: URL(fileURLWithPath: manifest))
        for arguments in [["apps", "install", manifest], ["apps", "allow-direct", filler], ["grant", filler, "share", steps],
                          ["apps", "quota", filler, "10MB"]] {
            let result = try await healthd.healthctl(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
    }

    /// The exact bytes `healthctl apps quota APP` reports the app stores.
    static func used(_ healthd: RestartableHealthd) async throws -> Int64? {
        let shown = try await healthd.healthctl(["apps", "quota", filler])
        return StorageQuotaEndToEndTests.usedBytes(shown.stdout)
    }

    @Test func theCountSurvivesARestartAndEqualsARecountAfterAKillMidSave() async throws {
        let healthd = try RestartableHealthd()
        defer { healthd.stop(); try? FileManager.default.removeItem(atPath: healthd.root) }
        try healthd.start()
        try await Self.setUp(healthd)

        // Saves on two connections, flat out, until healthd is killed under them.
        let answered = AnsweredSaves()
        let savers = (0 ..< 2).map { connection in
            Task.detached { () -> Int in
                guard let client = try? RPCClient.connect(path: healthd.appSocket) else { return 0 }
                defer { client.close() }
                var saved = 0
                for round in 0 ..< 10_000 {
                    do {
                        _ = try await client.unary(HealthStoreMethod.save.rawValue,
                                                   StorageQuotaEndToEndTests.batch(20, round: connection * 100_000 + round))
                        saved += 1
                        answered.count.withLock { $0 += 1 }
                    } catch {
                        return saved
                    }
                }
                return saved
            }
        }
        // Killed mid-save once saves are being answered (a loaded machine may take seconds for
        // the first), not after a fixed time.
        let deadline = ContinuousClock.now + .seconds(120)
        while answered.count.withLock({ $0 }) < 10, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        healthd.kill()
        var batches = 0
        for saver in savers { batches += await saver.value }
        #expect(batches > 0, "no save was answered before the kill")

        // The killed store, opened directly: the running count equals a recount of its rows.
        let (counted, recounted) = try {
            let store = try EncryptedDatabase.open(directory: healthd.storeDirectory)
            defer { try? store.close() }
            let database = try HealthDatabase(writer: store.writer)
            return (try database.storageUse.counted(), try database.storageUse.recounted())
        }()
        #expect(counted.filter { $0.value != 0 } == recounted.filter { $0.value != 0 })
        let stored = try #require(counted[Self.filler])
        #expect(stored > 0)

        // Restarted: healthd reports the same count, and again after a clean stop and start.
        try healthd.start()
        #expect(try await Self.used(healthd) == stored)
        healthd.stop()
        try healthd.start()
        #expect(try await Self.used(healthd) == stored)
    }
}

/// Saves answered so far, shared by the saving tasks and the test.
private final class AnsweredSaves: Sendable {
    let count = Mutex(0)
}
