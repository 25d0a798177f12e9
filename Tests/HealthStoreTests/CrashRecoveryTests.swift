import Foundation
import GRDB
import Testing
import TestSupport

@testable import HealthStore

/// A real child process is killed with SIGKILL at random points while it works on
/// the store; after each kill the store must open, pass integrity_check, and hold
/// everything the child was told had been saved.
@Suite(.timeLimit(.minutes(10)), .serialized) struct CrashRecoveryTests {
    static let saverKills = 200
    static let rotationKills = 60

    @Test func killedSaverLosesNoAcknowledgedRow() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashChild.executablePath),
                     "build store-crash-child first (swift build)")
        let directory = TemporaryDirectory()
        let path = directory.path
        var schedule = SplitMix64(seed: 20_261_121)
        var acknowledged = Set<Int64>()
        var killedMidRun = 0
        for iteration in 0..<Self.saverKills {
            let delay = UInt32.random(in: 0...60_000, using: &schedule)
            // Three kills in four are timed from the second acknowledged row (so they land mid-run
            // on any machine, and the run acknowledges at least 2 × 150 rows however slow it is);
            // every fourth from the start, to cover crashes while opening.
            let afterLines = iteration % 4 != 0 ? 2 : 0
            // The child's run blocks (sleeps, waits for its exit): off the cooperative pool.
            let outcome = try await offThePool {
                try CrashChild.run("save", directory: path, killAfterMicroseconds: delay, afterLines: afterLines)
            }
            try #require(outcome.wasKilled, "the child stopped by itself: \(outcome.errorOutput)")
            let ids = outcome.lines.compactMap(Int64.init)
            if !ids.isEmpty { killedMidRun += 1 }
            acknowledged.formUnion(ids)

            let store = try EncryptedDatabase.open(directory: directory.path)
            try store.checkIntegrity()
            let present = try await store.writer.read { db in
                try db.tableExists("acknowledged") ? Set(try Int64.fetchAll(db, sql: "SELECT id FROM acknowledged")) : []
            }
            let lost = acknowledged.subtracting(present)
            #expect(lost.isEmpty, "acknowledged rows lost: \(lost.sorted().prefix(10))")
            try store.close()
            if !lost.isEmpty { break }
        }
        // Most kills must land while the child is saving, or the test proves little (the kills
        // timed from acknowledged rows guarantee both counts on any machine).
        #expect(killedMidRun > Self.saverKills / 2)
        #expect(acknowledged.count > Self.saverKills)
    }

    @Test func killedRotationLeavesAStoreThatOpensWithEveryRow() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashChild.executablePath),
                     "build store-crash-child first (swift build)")
        let directory = TemporaryDirectory()
        let path = directory.path
        let expected: [Data] = try {
            let store = try EncryptedDatabase.open(directory: directory.path)
            defer { try? store.close() }
            return try store.writer.write { db in
                try db.execute(sql: "CREATE TABLE acknowledged (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
                for i in 0..<400 {
                    try db.execute(sql: "INSERT INTO acknowledged (payload) VALUES (?)",
                                   arguments: [Data((0..<(i * 37 % 3000 + 10)).map { UInt8(truncatingIfNeeded: $0 &* i) })])
                }
                return try Data.fetchAll(db, sql: "SELECT payload FROM acknowledged ORDER BY id")
            }
        }()
        let layout = try StoreLayout(directory: directory.path, create: false)
        var schedule = SplitMix64(seed: 7)
        var interrupted = 0, completed = 0
        for iteration in 0..<Self.rotationKills {
            let outcome: CrashChild.Outcome
            if iteration % 4 == 1 {
                // Every fourth kill lands inside a rotation, found by its state rather than by a
                // delay (a fast machine may rotate this small store between two random kills):
                // the child is stopped while store.keys holds the pending key, and killed there.
                outcome = try await offThePool {
                    try CrashChild.run("rotate", directory: path) {
                        (try? KeyEnvelope.load(StoreLayout(directory: path, create: false))?.pending) != nil
                    }
                }
            } else {
                let delay = UInt32.random(in: 5_000...150_000, using: &schedule)
                // Every fourth kill is timed from the first completed rotation, so that on a
                // loaded machine (where 150 ms may not see one through) some kills still follow
                // a commit.
                let afterLines = iteration % 4 == 3 ? 1 : 0
                outcome = try await offThePool {
                    try CrashChild.run("rotate", directory: path, killAfterMicroseconds: delay, afterLines: afterLines)
                }
            }
            try #require(outcome.wasKilled, "the child stopped by itself: \(outcome.errorOutput)")
            completed += outcome.lines.filter { $0 == "rotated" }.count
            if try KeyEnvelope.load(layout)?.pending != nil { interrupted += 1 }

            let store = try EncryptedDatabase.open(directory: directory.path)
            try store.checkIntegrity()
            let payloads = try await store.writer.read { try Data.fetchAll($0, sql: "SELECT payload FROM acknowledged ORDER BY id") }
            #expect(payloads == expected)
            try store.close()
            if payloads != expected { break }
        }
        #expect(interrupted > 0, "no kill landed inside a rotation")
        #expect(completed > 0, "no rotation ever completed")
    }
}
