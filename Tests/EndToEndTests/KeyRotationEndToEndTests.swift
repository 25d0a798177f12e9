import Foundation
import Testing

/// `healthctl key rotate` against a real healthd: the store is re-encrypted under a new key
/// while healthd keeps running, and no acknowledged save is lost, also while an app saves.
@Suite(.timeLimit(.minutes(10)), .serialized) struct KeyRotationEndToEndTests {
    @Test func rotationKeepsTheDataAndReplacesTheKey() async throws {
        let broker = try BrokerProcess()
        try await SavingApp.install("org.test.rotate", root: broker.root) { try await broker.healthctl($0) }
        let app = try SavingApp(socket: broker.appSocket)
        defer { app.close() }
        var saved: Set<UUID> = []
        for index in 0..<50 { saved.insert(try await app.save(index)) }
        let keysPath = broker.storeDirectory + "/store.keys"
        let keysBefore = try Data(contentsOf: URL(fileURLWithPath: keysPath))

        let rotate = try await broker.healthctl(["key", "rotate"])
        #expect(rotate.status == 0, "\(rotate)")
        #expect(rotate.stdout.contains("Rotated the data key"))

        #expect(try Data(contentsOf: URL(fileURLWithPath: keysPath)) != keysBefore)
        // The same connection is served by the reopened store.
        #expect(try await app.storedUUIDs() == saved)
        saved.insert(try await app.save(50))
        #expect(try await app.storedUUIDs() == saved)
        #expect(broker.isRunning)
    }

    /// Savers run before, through and after two rotations of a store big enough (20,000
    /// samples) that each rotation's offline window spans several saves. A save arriving in the
    /// window waits and then succeeds (any failure fails the test), and every acknowledged save
    /// is in the store afterwards. healthd logs how many calls waited ("calls_that_waited"; 3
    /// per rotation here, one per saver, when this was written). healthctl runs without
    /// blocking a thread of this process, so the savers keep running meanwhile.
    @Test func rotationWhileAnAppKeepsSavingLosesNoAcknowledgedSave() async throws {
        let broker = try RestartableHealthd()
        try broker.start()
        try await SavingApp.install("org.test.busy", root: broker.root) { try await broker.healthctl($0) }
        let savers = try (0..<3).map { _ in try SavingApp(socket: broker.appSocket) }
        defer { for saver in savers { saver.close() } }
        var prefilled: [UUID] = []
        for batch in 0..<20 { prefilled += try await savers[0].save(1_000_000 + batch * 1000..<1_000_000 + (batch + 1) * 1000) }

        let progress = SaveProgress(savers: savers.count)
        async let acknowledged = withThrowingTaskGroup(of: [UUID].self) { group in
            for (number, saver) in savers.enumerated() {
                group.addTask {
                    var uuids: [UUID] = []
                    var index = number * 100_000
                    while !progress.shouldStop(number) {
                        uuids.append(try await saver.save(index))
                        progress.saved(by: number)
                        index += 1
                    }
                    return uuids
                }
            }
            return try await group.reduce(into: [UUID]()) { $0 += $1 }
        }
        try await progress.waitUntilEverySaverSaved(3)
        for _ in 0..<2 {
            let rotate = try await broker.healthctl(["key", "rotate"])
            #expect(rotate.status == 0, "\(rotate)")
        }
        // Each saver goes on saving after the rotations before it stops.
        progress.stopAfter(3)
        let saves = try await acknowledged
        let stored = try await savers[0].storedUUIDs()
        #expect(stored == Set(saves + prefilled))
        #expect(stored.count == saves.count + prefilled.count)
    }
}

/// How far each saving task got, and when it should stop: `stopAfter(n)` lets each save `n`
/// more times from now.
final class SaveProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]
    private var stopAt: [Int]?

    init(savers: Int) { counts = Array(repeating: 0, count: savers) }

    func saved(by saver: Int) { lock.withLock { counts[saver] += 1 } }

    func shouldStop(_ saver: Int) -> Bool {
        lock.withLock { stopAt.map { counts[saver] >= $0[saver] } ?? false }
    }

    func stopAfter(_ more: Int) { lock.withLock { stopAt = counts.map { $0 + more } } }

    func waitUntilEverySaverSaved(_ count: Int) async throws {
        while lock.withLock({ counts.contains { $0 < count } }) {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

