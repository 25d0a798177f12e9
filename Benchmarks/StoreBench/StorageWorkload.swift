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

    struct Figures {
        let samples: Int
        let counted: Int64
        let fileGrowth: Int64
    }

    func run(in directory: String) async throws -> Figures {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let empty = try fileBytes(store, directory)
        let app = SourceRecord(bundleIdentifier: "org.bench.watch", name: "Watch", version: "10.1")
        let watch = DeviceRecord(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,1",
                                 softwareVersion: "10.1")
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
                                          metadata: [HKMetadataKeyHeartRateMotionContext: .number(Double(minute % 3))], device: watch))
                batch.append(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: date,
                                          endDate: end, value: .quantity(Double((minute * 37) % 120), unit: "count"), device: watch))
                batch.append(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.activeEnergyBurned.rawValue, startDate: date,
                                          endDate: end, value: .quantity(Double(minute % 9) / 3, unit: "kcal"), device: watch))
            }
            _ = try await database.samples.insert(batch, source: app)
            samples += batch.count
        }
        return Figures(samples: samples, counted: database.storage.used(appID: app.bundleIdentifier),
                       fileGrowth: try fileBytes(store, directory) - empty)
    }

    /// The database file once the WAL is checkpointed into it and truncated.
    private func fileBytes(_ store: EncryptedDatabase, _ directory: String) throws -> Int64 {
        try store.writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/health.sqlite")
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}
