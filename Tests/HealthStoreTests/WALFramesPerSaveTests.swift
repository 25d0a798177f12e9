import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// What one durable one-sample save writes to the WAL (issue 17): every frame is a page
/// encrypted, written and later checkpointed, so a page a save does not change must not be in
/// its commit. Counted on a real encrypted store: the WAL is emptied (checkpoint TRUNCATE), one
/// save with its access-log entry commits, and SQLite's own count of the WAL's frames is read.
@Suite(.timeLimit(.minutes(10))) struct WALFramesPerSaveTests {
    static let steps = StepSaveFixture.steps
    static let app = StepSaveFixture.app

    static func sample(_ index: Int, device: DeviceRecord? = nil) -> SampleRecord {
        StepSaveFixture.sample(index, device: device)
    }

    static let draft = StepSaveFixture.draft

    /// The frames the WAL holds after `save` ran on an emptied WAL.
    static func frames(of save: () async throws -> Void, _ store: EncryptedDatabase) async throws -> Int {
        try await store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try await save()
        return try await store.writer.writeWithoutTransaction { db in
            // (busy, frames in the WAL, frames checkpointed): the second is this save's.
            guard let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") else { return -1 }
            return row[1] as Int
        }
    }

    /// A source and device the store already holds unchanged: their rows' pages are not
    /// rewritten, so the save's commit holds only the pages the new object changes — the
    /// `objects` row and its indexes — the access-log entry's row, and the one `counters` page
    /// holding both the change number and the chain head (v37): 8 frames. 10 while the head was
    /// a table of its own and the log had an index no plan used (v3–v36), 11 with the device's
    /// upsert, which rewrote its fingerprint index entry on every save (the row itself,
    /// rewritten byte for byte, stays a clean page).
    @Test func aRepeatedSaveOfAKnownSourceRewritesNoSourceOrDevicePage() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let source = SourceRecord(bundleIdentifier: Self.app, name: "App", version: "1")
        let watch = DeviceRecord(name: "Watch", manufacturer: "Example", model: "W1")
        for index in 0..<3 {
            _ = try await database.samples.insert([Self.sample(index, device: watch)], source: source, accessLog: Self.draft)
        }
        let frames = try await Self.frames(of: {
            _ = try await database.samples.insert([Self.sample(10, device: watch)], source: source, accessLog: Self.draft)
        }, store)
        #expect(frames > 0)
        #expect(frames <= 8, "WAL frames for a repeated one-sample save: \(frames)")
    }

    /// The same, for a source that records the host it saves on, as healthd stamps every app's save
    /// (`AppManifest.source`, `HostSystem`): its `source_systems` row is known, so it is looked up,
    /// not upserted. The upsert (`ON CONFLICT DO UPDATE SET product_type = …`) rewrote the row's
    /// entry in the (product type, system version) index on every save — one more frame, 9, for
    /// every app save (found session 16, failed before `SampleRepository.systemID` looked first).
    @Test func aRepeatedSaveOfAKnownHostRewritesNoSystemPage() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let source = SourceRecord(bundleIdentifier: Self.app, name: "App", version: "1", productType: "ThinkPad X1",
                                  operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))
        for index in 0..<3 {
            _ = try await database.samples.insert([Self.sample(index)], source: source, accessLog: Self.draft)
        }
        let frames = try await Self.frames(of: {
            _ = try await database.samples.insert([Self.sample(10)], source: source, accessLog: Self.draft)
        }, store)
        #expect(frames > 0)
        #expect(frames <= 8, "WAL frames for a repeated one-sample save from a recorded host: \(frames)")
        let systems = try await store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM source_systems") }
        #expect(systems == 1)
    }

    /// A save under another display name leaves the source's row as it is: a write never renames
    /// a source (a rename by a write the reader cannot see would show on its visible samples;
    /// `HiddenWriteTwinTests`), so it costs no frame for the row either. Installing the app
    /// under a new name renames it (`AppRepository.install`).
    @Test func aSaveUnderAnotherNameLeavesTheSourceRowAlone() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try await database.samples.insert([Self.sample(0)], source: SourceRecord(bundleIdentifier: Self.app, name: "Old", version: "1"))
        _ = try await database.samples.insert([Self.sample(1)], source: SourceRecord(bundleIdentifier: Self.app, name: "New", version: "1"))
        let names = try await store.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM sources WHERE bundle_identifier = ?", arguments: [Self.app]) }
        #expect(names == ["Old"])
    }
}
