import Foundation
import GRDB
import HealthModel
import HealthStore

/// What a busy watch app stores, counted and measured (`StorageUse`, ARCHITECTURE.md "Per-app
/// storage"): `days` days of per-minute heart rate (with its motion context), step count and
/// active energy from one Apple Watch, saved as one app in hourly batches into an encrypted store.
/// Reports the app's count beside the database file's growth (checkpointed), so the per-object
/// estimate (`StoredSize`) can be checked against pages, and a year's cost read off.
struct StorageWorkload {
    let days: Int
    /// Without device and metadata: the bare rows, to calibrate `StoredSize.objectRow`.
    var bare = false

    struct Figures {
        let samples: Int
        let counted: Int64
        let fileGrowth: Int64
    }

    func run(in directory: String) async throws -> Figures {
        // The file is measured with the store closed: the last connection's close checkpoints the
        // WAL into it (a checkpoint while the store's own checkpointer runs may find it busy).
        var store = try EncryptedDatabase.open(directory: directory)
        _ = try HealthDatabase(writer: store.writer)
        try store.close()
        let empty = try fileBytes(directory)
        store = try EncryptedDatabase.open(directory: directory)
        let database = try HealthDatabase(writer: store.writer)
        let app = SourceRecord(bundleIdentifier: "org.bench.watch", name: "Watch", version: "10.1")
        let watch = bare ? nil : DeviceRecord(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch",
                                              hardwareVersion: "Watch6,1", softwareVersion: "10.1")
        let motion: [String: MetadataValue] = [HKMetadataKeyHeartRateMotionContext: .number(0)]
        let start = Date(timeIntervalSince1970: 1_767_222_000)
        var samples = 0
        for hour in 0..<(days * 24) {
            var batch: [SampleRecord] = []
            batch.reserveCapacity(180)
            for minute in 0..<60 {
                let date = start.addingTimeInterval(Double(hour * 3_600 + minute * 60))
                let end = date.addingTimeInterval(60)
                batch.append(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue, startDate: date,
                                          endDate: date, value: .quantity(Double(55 + (minute * 13) % 70), unit: "count/min"),
                                          metadata: bare ? [:] : motion, device: watch))
                batch.append(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: date,
                                          endDate: end, value: .quantity(Double((minute * 37) % 120), unit: "count"), device: watch))
                batch.append(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.activeEnergyBurned.rawValue, startDate: date,
                                          endDate: end, value: .quantity(Double(minute % 9) / 3, unit: "kcal"), device: watch))
            }
            _ = try await database.samples.insert(batch, source: app)
            samples += batch.count
        }
        let counted = database.storage.used(appID: app.bundleIdentifier)
        try store.close()
        return Figures(samples: samples, counted: counted, fileGrowth: try fileBytes(directory) - empty)
    }

    /// The database file. Closed, the store has checkpointed its WAL into it; the WAL file itself
    /// may stay at its size limit (64 MiB) with nothing in it that counts.
    private func fileBytes(_ directory: String) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/health.sqlite")
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}
