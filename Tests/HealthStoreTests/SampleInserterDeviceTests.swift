import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// `SampleInserter` remembers the last device it looked up and compares the next record's with
/// it before hashing it into its table (issue 17). What that must not change, on a real encrypted
/// store: each row names its own record's device when consecutive records' devices differ in
/// one field only — the first or the last of the eight — or not at all, or one has none; and a
/// device is one `devices` row however often and in whichever write it comes back.
@Suite(.timeLimit(.minutes(10))) struct SampleInserterDeviceTests {
    static let watch = DeviceRecord(name: "Watch", manufacturer: "Example", model: "W1", udiDeviceIdentifier: "udi-1")
    /// `watch` but for its last field.
    static let otherUDI = DeviceRecord(name: "Watch", manufacturer: "Example", model: "W1", udiDeviceIdentifier: "udi-2")
    /// `watch` but for its first field.
    static let otherName = DeviceRecord(name: "Watcj", manufacturer: "Example", model: "W1", udiDeviceIdentifier: "udi-1")

    static func sample(minute: Int, device: DeviceRecord?) -> SampleRecord {
        var record = SampleInserterDirectStepTests.sample(minute: minute)
        record.device = device
        return record
    }

    static func storedDevices(_ database: HealthDatabase) throws -> [DeviceRecord?] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.name, d.manufacturer, d.model, d.udi_device_identifier
                FROM objects o LEFT JOIN devices d ON d.id = o.device_id ORDER BY o.id
                """).map { row -> DeviceRecord? in
                guard row["id"] as Int64? != nil else { return nil }
                return DeviceRecord(name: row["name"], manufacturer: row["manufacturer"], model: row["model"],
                                    udiDeviceIdentifier: row["udi_device_identifier"])
            }
        }
    }

    @Test func eachRowNamesItsOwnDevice() async throws {
        let devices: [DeviceRecord?] = [Self.watch, Self.watch, Self.otherUDI, Self.watch, nil, Self.otherName, Self.otherName,
                                        nil, Self.watch, Self.otherUDI]
        try await SampleInserterDirectStepTests.withStore { database in
            let source = SampleInserterDirectStepTests.source("a")
            _ = try await database.samples.insert(devices.enumerated().map { Self.sample(minute: $0, device: $1) }, source: source)
            // A second write starts with another inserter: its devices are found, not added again.
            _ = try await database.samples.insert([Self.sample(minute: 100, device: Self.otherName),
                                                   Self.sample(minute: 101, device: Self.watch)], source: source)
            #expect(try Self.storedDevices(database) == devices + [Self.otherName, Self.watch])
            let deviceRows = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM devices") }
            #expect(deviceRows == 3)
        }
    }
}
