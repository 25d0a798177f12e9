import Foundation
import HealthModel
import HealthStore

/// The store's own side of a batched save (issue 17): `SampleRepository.insert` of 1,000-sample
/// batches into the encrypted store, in process — no SDK, socket or protobuf — so the insert
/// path's cost is seen apart from the rest of the stack. Two kinds of sample:
///
/// - plain: a step count with no device and no metadata (what stack-bench's apps save);
/// - imported: the same with a device and the metadata an Apple Health import carries (a sync
///   identifier and version, as `healthctl import` derives them, and the record's creation date),
///   which adds the sync-identifier lookup, the device and metadata to every row.
///
/// It uses only the store's public API, so the same file measures an older build of the store.
struct BatchedSaveWorkload {
    let batches: Int
    static let batchSize = 1_000
    static let device = DeviceRecord(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,2",
                                     softwareVersion: "10.1")

    func sample(_ index: Int, imported: Bool) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        var record = SampleRecord(uuid: UUID(), typeIdentifier: GroupCommitWorkload.stepType, startDate: start,
                                  endDate: start.addingTimeInterval(60), value: .quantity(Double(index % 120), unit: "count"))
        if imported {
            record.device = Self.device
            record.metadata = [HKMetadataKeySyncIdentifier: .string("import-\(index)"), HKMetadataKeySyncVersion: .number(1),
                               "HKWasUserEntered": .bool(false), "creationDate": .date(start)]
        }
        return record
    }

    /// Samples per second over all batches; the batches are built before the clock starts.
    func run(directory: String, imported: Bool) async throws -> Double {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let source = SourceRecord(bundleIdentifier: "org.example.batches", name: "Batches", version: "1")
        let batches = (0..<batches).map { batch in
            (0..<Self.batchSize).map { sample(batch * Self.batchSize + $0, imported: imported) }
        }
        let start = ContinuousClock.now
        for batch in batches {
            _ = try await database.samples.insert(batch, source: source)
        }
        return Double(batches.count * Self.batchSize) / (ContinuousClock.now - start).seconds
    }
}
