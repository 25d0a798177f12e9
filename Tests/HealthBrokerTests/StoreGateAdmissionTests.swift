import Foundation
import HealthModel
import HealthStore
import Testing

@testable import HealthBroker

/// The store gate's admission without the actor (`enterNow`, used by calls answered on a
/// connection's reader thread): a key change must wait for such a call exactly as for one
/// admitted by the actor, and none is admitted while the store is closed.
@Suite(.timeLimit(.minutes(10))) struct StoreGateAdmissionTests {
    final class Fixture {
        let directory: URL
        let encrypted: EncryptedDatabase
        let gate: StoreGate

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            encrypted = try EncryptedDatabase.open(directory: directory.path)
            gate = StoreGate(.init(encrypted: encrypted, database: try HealthDatabase(writer: encrypted.writer)))
        }

        deinit {
            try? encrypted.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// A call inside makes a key change's drain time out (and the gate opens again); once it
    /// leaves, the key change takes the store, and the fast path admits nothing until reopen.
    @Test func aKeyChangeWaitsForACallAdmittedWithoutTheActor() async throws {
        let fixture = try Fixture()
        let gate = fixture.gate
        #expect(gate.enterNow() != nil)
        // (`#require`: were the call not counted, the store would now be offline, and going on
        // would take it offline a second time.)
        try await #require(throws: HKError.self) { _ = try await gate.takeOffline(drainingAtMost: .milliseconds(200)) }
        // The failed drain reopened the gate.
        #expect(gate.enterNow() != nil)
        gate.leave()
        gate.leave()
        let store = try await gate.takeOffline(drainingAtMost: .seconds(5))
        #expect(gate.enterNow() == nil)
        await gate.reopen(store)
        #expect(gate.enterNow() != nil)
        gate.leave()
    }

    /// A drain under way ends when the last call admitted without the actor leaves, and no
    /// call is admitted that way meanwhile.
    @Test func theDrainEndsWhenTheLastCallLeaves() async throws {
        let fixture = try Fixture()
        let gate = fixture.gate
        #expect(gate.enterNow() != nil)
        let taken = Task { try await gate.takeOffline(drainingAtMost: .seconds(20)) }
        while gate.enterNow() != nil {  // until the drain has begun
            gate.leave()
            try await Task.sleep(for: .milliseconds(5))
        }
        gate.leave()
        let store = try await taken.value
        #expect(gate.enterNow() == nil)
        await gate.reopen(store)
    }

    /// A call that finds the store closed waits (the actor's path) and is admitted at reopen,
    /// counted like the others: the next key change waits for it too.
    @Test func aCallWaitingForTheStoreIsCountedWhenAdmitted() async throws {
        let fixture = try Fixture()
        let gate = fixture.gate
        let store = try await gate.takeOffline(drainingAtMost: .seconds(5))
        let waiter = Task { try await gate.enter(waitingAtMost: .seconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        await gate.reopen(store)
        _ = try await waiter.value
        try await #require(throws: HKError.self) { _ = try await gate.takeOffline(drainingAtMost: .milliseconds(200)) }
        gate.leave()
        _ = try await gate.takeOffline(drainingAtMost: .seconds(5))
    }
}
