import Foundation
import Testing

/// `healthctl key rotate` against a real healthd: the store is re-encrypted under a new key
/// while healthd keeps running, and no acknowledged save is lost, also while an app saves.
@Suite(.serialized) struct KeyRotationEndToEndTests {
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

    @Test func rotationWhileAnAppKeepsSavingLosesNoAcknowledgedSave() async throws {
        let broker = try BrokerProcess()
        try await SavingApp.install("org.test.busy", root: broker.root) { try await broker.healthctl($0) }
        let savers = try (0..<3).map { _ in try SavingApp(socket: broker.appSocket) }
        defer { for saver in savers { saver.close() } }
        let stop = StopFlag()
        async let acknowledged = withThrowingTaskGroup(of: [UUID].self) { group in
            for (number, saver) in savers.enumerated() {
                group.addTask {
                    var uuids: [UUID] = []
                    var index = number * 100_000
                    // Saves stop failing over to errors only if the key change makes them: a
                    // save during the window waits and then succeeds.
                    while !stop.isSet || uuids.count < 20 {
                        uuids.append(try await saver.save(index))
                        index += 1
                    }
                    return uuids
                }
            }
            return try await group.reduce(into: [UUID]()) { $0 += $1 }
        }
        for _ in 0..<2 {
            let rotate = try await broker.healthctl(["key", "rotate"])
            #expect(rotate.status == 0, "\(rotate)")
        }
        stop.set()
        let saves = try await acknowledged
        let stored = try await savers[0].storedUUIDs()
        #expect(Set(saves).isSubset(of: stored))
        #expect(stored.count == saves.count)
    }
}

/// Tells the saving tasks to wind down.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
