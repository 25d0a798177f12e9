import Dispatch
import Foundation
import HealthModel
import HealthStore
import Synchronization
import Testing

@testable import HealthBroker

/// An answer sent in many messages asks `StreamVisibility` before each one. Once a lock or key
/// change has begun closing the store it read from, the answer ends at its next message with the
/// status of a locked store (errorDatabaseInaccessible), whatever was deleted before — by the
/// reader, by an app it cannot see, or by nobody (privacy review, session 19, finding 7: it went
/// on and completed when nobody had deleted anything, and when anybody had it asked the closed
/// side connection — healthd died with SIGSEGV, `StoreClosingStreamEndToEndTests`).
///
/// On a real encrypted store with its side connection and gate, as healthd has them; the
/// summaries read within the answer's snapshot record its reading, as a stream's first reading does.
@Suite(.timeLimit(.minutes(10))) struct StoreClosingStreamTests {
    enum Deletion: String, CaseIterable, CustomStringConvertible {
        case none
        /// Another app deletes its own energy sample: one the reader cannot see.
        case hidden
        /// The reader deletes one of its own.
        case visible
        var description: String { rawValue }
    }

    static let reader = AppManifest(id: "org.example.closing-reader", displayName: "Reader", executable: "/usr/bin/closing-reader",
                                    version: "1", readUsageDescription: "reads", shareUsageDescription: "writes")
    static let other = AppManifest(id: "org.example.closing-other", displayName: "Other", executable: "/usr/bin/closing-other",
                                   version: "1", readUsageDescription: "reads", shareUsageDescription: "writes")
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let summaries = HKObjectType.activitySummaryType().identifier

    final class Fixture {
        let directory: URL
        let encrypted: EncryptedDatabase
        let database: HealthDatabase
        let gate: StoreGate

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("closing-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            encrypted = try EncryptedDatabase.open(directory: directory.path)
            database = try HealthDatabase(writer: encrypted.writer, sideReader: encrypted.sideReader)
            gate = StoreGate(.init(encrypted: encrypted, database: database))
            for app in [StoreClosingStreamTests.reader, StoreClosingStreamTests.other] { _ = try database.apps.install(app) }
        }

        /// One energy sample of `app`'s own.
        func save(_ app: AppManifest) async throws -> UUID {
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            let record = SampleRecord(uuid: UUID(), typeIdentifier: StoreClosingStreamTests.energy, startDate: start,
                                      endDate: start.addingTimeInterval(60), value: .quantity(10, unit: "kcal"))
            let source = SourceRecord(bundleIdentifier: app.id, name: app.displayName, version: "1")
            return try #require(try await database.samples.insert([record], source: source).first)
        }

        func delete(_ uuid: UUID, of app: AppManifest) async throws {
            let deleted = try await database.samples.delete([ObjectReference(typeIdentifier: StoreClosingStreamTests.energy, uuid: uuid)],
                                                            appID: app.id)
            try #require(deleted == 1)
        }

        deinit {
            try? encrypted.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func expectClosedUnderAnswer(_ body: () throws -> Void, _ comment: String) {
        do {
            try body()
            Issue.record("\(comment): went on")
        } catch let error as HKError {
            #expect(error == StoreHandle.closedUnderAnswer, "\(comment): \(error)")
        } catch {
            Issue.record("\(comment): ended with \(error), not the locked store's status")
        }
    }

    @Test(arguments: Deletion.allCases)
    func aStreamEndsAtItsNextMessageOnceItsStoreBeginsClosing(_ deletion: Deletion) async throws {
        let fixture = try Fixture()
        let own = try await fixture.save(Self.reader)
        let theirs = try await fixture.save(Self.other)
        let visibility = try StreamVisibility(app: Self.reader, types: [Self.summaries], in: fixture.database)
        // The answer's first reading: its snapshot records the change number the side question starts after.
        _ = try fixture.database.activitySummaries.summaries(ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC"),
                                                             scope: visibility.scope(Self.summaries), within: visibility.snapshot)
        try #require(try visibility.isCurrent())
        switch deletion {
        case .none: break
        case .hidden: try await fixture.delete(theirs, of: Self.other)
        case .visible: try await fixture.delete(own, of: Self.reader)
        }
        // A lock or key change: the drain (no call is inside), then the close.
        let store = try await fixture.gate.takeOffline(drainingAtMost: .seconds(5))
        Self.expectClosedUnderAnswer({ _ = try visibility.isCurrent() }, "\(deletion), draining")
        try store.encrypted.close()
        Self.expectClosedUnderAnswer({ _ = try visibility.isCurrent() }, "\(deletion), closed")
        Self.expectClosedUnderAnswer({ try visibility.refresh() }, "\(deletion), closed, reading again")
    }

    /// A question a stream is asking when the close begins holds the close until it ends, so
    /// nothing it asks runs on a closed connection (session 20: healthd died with SIGSEGV when a
    /// stream asked the side connection after a key rotation had closed it).
    @Test func theCloseWaitsForAQuestionAlreadyBeingAsked() async throws {
        let lifetime = StoreLifetime()
        let ended = Mutex(false)
        let release = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (asking: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                _ = lifetime.whileInService {
                    asking.resume()
                    release.wait()
                    ended.withLock { $0 = true }
                }
            }
        }
        let closing = Task {
            await lifetime.beginClosing()
            return ended.withLock { $0 }
        }
        try await Task.sleep(for: .milliseconds(200))
        release.signal()
        #expect(await closing.value, "the close went on while a question was being asked")
        #expect(lifetime.whileInService { true } == nil, "a question was asked after the close began")
        lifetime.closeCalledOff()
        #expect(lifetime.whileInService { true } == true)
    }

    /// A close called off (the drain timed out: a call stayed inside) leaves the store serving,
    /// and its streams go on as before.
    @Test func aCloseCalledOffLeavesTheStreamGoingOn() async throws {
        let fixture = try Fixture()
        let visibility = try StreamVisibility(app: Self.reader, types: [Self.summaries], in: fixture.database)
        _ = try fixture.database.activitySummaries.summaries(ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC"),
                                                             scope: visibility.scope(Self.summaries), within: visibility.snapshot)
        #expect(fixture.gate.enterNow() != nil)
        try await #require(throws: HKError.self) { _ = try await fixture.gate.takeOffline(drainingAtMost: .milliseconds(200)) }
        fixture.gate.leave()
        #expect(try visibility.isCurrent())
    }
}
