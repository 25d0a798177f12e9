import Foundation
import GRDB
import HealthStore
import Synchronization
import Testing

@testable import HealthBroker

/// The store's reader pool is sized from the broker's limits (`BrokerLimits.storeReaders`): every
/// large query that may run or park at once holds a reader, so does every wake-up check running
/// (`checkWorkers`), and cheap calls keep readers of their own beside them. GRDB's fixed 5 was
/// fewer than running + parked from 6 cores up.
@Suite(.timeLimit(.minutes(10))) struct StoreReaderSizingTests {
    /// The limits of a 64-core machine: 63 large queries running, 2 parked.
    static var manyCores: BrokerLimits {
        var limits = BrokerLimits()
        limits.largeQueriesRunning = 63
        limits.checkWorkers = 4
        limits.storeReadersForCheapCalls = 8
        return limits
    }

    @Test func aManyCoreLimitSetGetsAReaderPerLargeQueryAndSomeForCheapCalls() {
        let limits = Self.manyCores
        #expect(limits.storeReaders == 63 + 2 + 4 + 8)
        #expect(limits.storeReaders > limits.largeQueriesRunning + limits.largeQueriesParked + limits.checkWorkers)
    }

    @Test func theDefaultsLeaveReadersForCheapCalls() {
        let limits = BrokerLimits()
        #expect(limits.storeReadersForCheapCalls >= 2)
        #expect(limits.checkWorkers >= 1 && limits.checkWorkers <= 4)
        #expect(limits.checkWorkers < limits.storeReaders - limits.largeQueriesRunning - limits.largeQueriesParked)
        #expect(limits.storeReaders == limits.largeQueriesRunning + limits.largeQueriesParked + limits.checkWorkers
            + limits.storeReadersForCheapCalls)
    }

    /// Running and parked large queries and running wake-up checks each hold a reader (here:
    /// reads blocked inside the pool until the test ends them); a cheap read still gets one.
    /// 4 running + 2 parked + 2 checks is more than GRDB's default 5 readers.
    @Test func runningAndParkedQueriesLeaveAReaderForACheapCall() async throws {
        var limits = BrokerLimits()
        limits.largeQueriesRunning = 4
        limits.checkWorkers = 2
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let encrypted = try EncryptedDatabase.open(directory: directory.path, maximumReaderCount: limits.storeReaders)
        defer { try? encrypted.close() }
        #expect(encrypted.maximumReaderCount == limits.storeReaders)

        let large = limits.largeQueriesRunning + limits.largeQueriesParked + limits.checkWorkers
        // Reads block on threads of their own; the test only polls (never blocks the pool).
        let inside = Mutex(0)
        let finish = DispatchSemaphore(value: 0)
        for _ in 0..<large {
            Thread {
                _ = try? encrypted.writer.read { db in
                    _ = try Int.fetchOne(db, sql: "SELECT 1")
                    inside.withLock { $0 += 1 }
                    finish.wait()
                }
            }.start()
        }
        defer { for _ in 0..<large { finish.signal() } }
        // Hang guards, not speed checks: each read gets in at once when there is a reader for it.
        let allInside = try await Self.eventually { inside.withLock { $0 } == large }
        try #require(allInside, "\(inside.withLock { $0 }) of \(large) large queries and checks found a reader")
        let cheap = Mutex(false)
        Thread {
            _ = try? encrypted.writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            cheap.withLock { $0 = true }
        }.start()
        #expect(try await Self.eventually { cheap.withLock { $0 } }, "the cheap read waited for a large query's reader")
    }

    /// Polls `condition` until it holds (true) or a 60 s hang guard passes (false).
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let until = Date().addingTimeInterval(60)
        while !condition() {
            if Date() > until { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
