import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Vision prescriptions in the store (v27 `vision_prescriptions`, `vision_lenses`): every field
/// of both lens kinds comes back, unset stays unset, and deleting the sample removes its rows.
@Suite(.timeLimit(.minutes(10))) struct VisionPrescriptionRepositoryTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")

    static func record(_ value: VisionPrescriptionValue) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: date, endDate: date,
                     value: .visionPrescription(value))
    }

    static let glasses = VisionPrescriptionValue(
        kind: 1, hasLenses: true, expirationDate: date.addingTimeInterval(86_400 * 730),
        rightEye: LensSpecificationValue(sphere: -2.25, cylinder: -0.5, axis: 90, addPower: 1.5, vertexDistance: 12,
                                         prism: VisionPrismValue(amount: 0.25, angle: 15, eye: 2), farPupillaryDistance: 32,
                                         nearPupillaryDistance: 30),
        leftEye: LensSpecificationValue(sphere: -2))
    static let contacts = VisionPrescriptionValue(kind: 2, hasLenses: true, expirationDate: nil,
                                                  rightEye: LensSpecificationValue(sphere: 1, baseCurve: 8.6, diameter: 14.2),
                                                  brand: "Acme Daily")
    static let plain = VisionPrescriptionValue(kind: 2, hasLenses: false, expirationDate: nil)

    @Test func everyFieldRoundTrips() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.glasses, Self.contacts, Self.plain].map(Self.record), source: Self.owner)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKVisionPrescriptionTypeIdentifier), scope: .allSources) { fetched += $0 }
        #expect(fetched.map(\.value) == [.visionPrescription(Self.glasses), .visionPrescription(Self.contacts),
                                         .visionPrescription(Self.plain)])
    }

    @Test func deletingAPrescriptionRemovesItsRows() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert([Self.record(Self.glasses)], source: Self.owner)
        let counts = { () async throws -> [Int] in
            try await database.writer.read { db in
                try ["vision_prescriptions", "vision_lenses"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1 }
            }
        }
        #expect(try await counts() == [1, 2])
        let deleted = try await database.samples.delete([ObjectReference(typeIdentifier: HKVisionPrescriptionTypeIdentifier, uuid: uuids[0])],
                                                        appID: Self.owner.bundleIdentifier)
        #expect(deleted == 1)
        #expect(try await counts() == [0, 0])
    }
}
