import Foundation
@testable import HealthKit
import Testing

/// `HKSample.fetched(_:sharing:)` for a whole `FetchedSampleBatch` builds plain rows straight
/// from their scalars (issue 17); every object it makes must be the one the record path
/// (`FetchedSampleBatch.record(at:)` then `HKSample.fetched(_:sharing:)`) makes, and a row the
/// record path refuses must be refused with the same error.
@Suite(.timeLimit(.minutes(10))) struct FetchedBatchObjectTests {
    static let base: Int64 = 1_767_222_000_000_000
    static let watch = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "7")
    static let phone = SourceRecord(bundleIdentifier: "org.example.phone", name: "Phone", version: nil)
    static let band = DeviceRecord(name: "Band", manufacturer: "Acme", model: "B1", softwareVersion: "1.4")

    /// Rows of every plain shape — with and without source and device, each of two sources and
    /// the device, extreme values — and one row read whole (metadata).
    static func batch(type: String, unit: String, plain: [FetchedSample.Value]) -> FetchedSampleBatch {
        var rows: [FetchedSample] = []
        for (index, value) in plain.enumerated() {
            let start = base + Int64(index) * 60_000_000
            rows.append(FetchedSample(uuid: UUID(), startUS: start, endUS: start + Int64(index % 3) * 30_000_000, value: value,
                                      source: index % 4 == 3 ? nil : Int32(index % 2),
                                      device: index % 3 == 0 ? 0 : nil))
        }
        let whole = SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: Date(microsecondsSince1970: base),
                                 endDate: Date(microsecondsSince1970: base + 1), value: plain.first.map { value in
                                     if case let .category(raw) = value { return .category(Int(raw)) }
                                     return .quantity(3.5, unit: unit)
                                 } ?? .category(0),
                                 metadata: ["custom.note": .string("whole")], device: band, source: watch)
        rows.append(FetchedSample(uuid: whole.uuid, startUS: base, endUS: base + 1, value: .record(0), source: nil, device: nil))
        return FetchedSampleBatch(typeIdentifier: type, unit: unit, sources: [watch, phone], devices: [band], rows: rows,
                                  records: [whole])
    }

    /// Everything an app can read of a fetched sample, and what a later save would send.
    static func expectSame(_ fast: [HKSample], asRecordsOf batch: FetchedSampleBatch) throws {
        let parts = FetchedObjectParts()
        let slow = try batch.rows.indices.map { index in try HKSample.fetched(batch.record(at: index), sharing: parts) }
        #expect(fast.count == slow.count)
        for (made, reference) in zip(fast, slow) {
            #expect(ObjectIdentifier(type(of: made)) == ObjectIdentifier(type(of: reference)))
            #expect(made.uuid == reference.uuid)
            #expect(made.sampleType == reference.sampleType)
            #expect(made.startDate == reference.startDate && made.endDate == reference.endDate)
            #expect(made.recordValue == reference.recordValue)
            #expect(made.device == reference.device)
            #expect(made.sourceRevision == reference.sourceRevision)
            #expect((made.metadata as? [String: String]) == (reference.metadata as? [String: String]))
            #expect(made.metadata?.count == reference.metadata?.count)
            #expect(try made.saveRecord() == reference.saveRecord())
            if let made = made as? HKQuantitySample, let reference = reference as? HKQuantitySample {
                #expect(made.quantity == reference.quantity)
                #expect(made.quantity.unit.unitString == reference.quantity.unit.unitString)
                #expect(made.quantityType == reference.quantityType)
                #expect(made.count == reference.count)
            }
            if let made = made as? HKCategorySample, let reference = reference as? HKCategorySample {
                #expect(made.value == reference.value)
                #expect(made.categoryType == reference.categoryType)
            }
        }
    }

    @Test func cumulativeQuantityRowsAreTheRecordPathsObjects() throws {
        let batch = Self.batch(type: HKQuantityTypeIdentifier.stepCount.rawValue, unit: "count",
                               plain: [.quantity(0), .quantity(42), .quantity(-0.0), .quantity(1e300), .quantity(.leastNonzeroMagnitude),
                                       .quantity(7), .quantity(8)])
        let samples = try HKSample.fetched(batch, sharing: FetchedObjectParts())
        #expect(samples.dropLast().allSatisfy { $0 is HKCumulativeQuantitySample })
        try Self.expectSame(samples, asRecordsOf: batch)
    }

    @Test func discreteQuantityRowsAreTheRecordPathsObjects() throws {
        let batch = Self.batch(type: HKQuantityTypeIdentifier.heartRate.rawValue, unit: "count/min",
                               plain: [.quantity(55), .quantity(180.25), .quantity(60), .quantity(61), .quantity(62)])
        let samples = try HKSample.fetched(batch, sharing: FetchedObjectParts())
        #expect(samples.dropLast().allSatisfy { $0 is HKDiscreteQuantitySample })
        try Self.expectSame(samples, asRecordsOf: batch)
    }

    @Test func categoryRowsAreTheRecordPathsObjects() throws {
        let batch = Self.batch(type: HKCategoryTypeIdentifier.sleepAnalysis.rawValue, unit: "",
                               plain: [.category(0), .category(5), .category(Int64.max), .category(Int64.min), .category(2)])
        let samples = try HKSample.fetched(batch, sharing: FetchedObjectParts())
        #expect(samples.dropLast().allSatisfy { $0 is HKCategorySample })
        try Self.expectSame(samples, asRecordsOf: batch)
    }

    /// One answer's objects share their source revision and device by table index, also when
    /// rows of two sources alternate (the record path's one-entry cache makes a new revision at
    /// each switch).
    @Test func rowsOfOneSourceShareOneRevisionAndDevice() throws {
        let batch = Self.batch(type: HKQuantityTypeIdentifier.stepCount.rawValue, unit: "count",
                               plain: [.quantity(1), .quantity(2), .quantity(3), .quantity(4), .quantity(5), .quantity(6), .quantity(7)])
        let samples = try HKSample.fetched(batch, sharing: FetchedObjectParts())
        let watchRows = samples.indices.filter { batch.rows[$0].source == 0 }
        #expect(watchRows.count >= 2)
        #expect(watchRows.allSatisfy { samples[$0].sourceRevision === samples[watchRows[0]].sourceRevision })
        let banded = samples.indices.filter { batch.rows[$0].device == 0 }
        #expect(banded.count >= 2)
        #expect(banded.allSatisfy { samples[$0].device === samples[banded[0]].device })
    }

    /// Two batches of one answer through one `FetchedObjectParts`, the second with grown tables,
    /// rows naming every source and device index in turn (and none): each object gets its own
    /// row's revision and device: the parts' per-index cache must follow the row's index, not
    /// the previous row's or the previous batch's.
    @Test func grownTablesAcrossBatchesKeepEachRowsParts() throws {
        let ring = SourceRecord(bundleIdentifier: "org.example.ring", name: "Ring", version: "2")
        let strap = DeviceRecord(name: "Strap", manufacturer: "Acme", model: "S2")
        func rows(_ count: Int, sources: Int, devices: Int) -> [FetchedSample] {
            (0..<count).map { index in
                let start = Self.base + Int64(index) * 60_000_000
                return FetchedSample(uuid: UUID(), startUS: start, endUS: start, value: .quantity(Double(index)),
                                     source: index % (sources + 1) == sources ? nil : Int32(index % (sources + 1)),
                                     device: index % (devices + 1) == devices ? nil : Int32(index % (devices + 1)))
            }
        }
        let type = HKQuantityTypeIdentifier.heartRate.rawValue
        let first = FetchedSampleBatch(typeIdentifier: type, unit: "count/min", sources: [Self.watch, Self.phone], devices: [Self.band],
                                       rows: rows(7, sources: 2, devices: 1))
        let second = FetchedSampleBatch(typeIdentifier: type, unit: "count/min", sources: [Self.watch, Self.phone, ring],
                                        devices: [Self.band, strap], rows: rows(13, sources: 3, devices: 2))
        let parts = FetchedObjectParts()
        for batch in [first, second] {
            try Self.expectSame(try HKSample.fetched(batch, sharing: parts), asRecordsOf: batch)
        }
    }

    /// A plain row whose value does not fit its type (healthd and the SDK disagreeing) fails as
    /// the record path fails, instead of becoming an object of the wrong kind.
    @Test func aRowOfTheWrongKindFailsAsTheRecordPathDoes() throws {
        for (type, value) in [(HKQuantityTypeIdentifier.stepCount.rawValue, FetchedSample.Value.category(1)),
                              (HKCategoryTypeIdentifier.sleepAnalysis.rawValue, .quantity(1)),
                              ("HKQuantityTypeIdentifierNoSuchType", .quantity(1))] {
            let batch = FetchedSampleBatch(typeIdentifier: type, unit: "count",
                                           rows: [FetchedSample(uuid: UUID(), startUS: Self.base, endUS: Self.base, value: value,
                                                                source: nil, device: nil)])
            var reference: HKError?
            do { _ = try HKSample.fetched(batch.record(at: 0)) } catch { reference = error }
            var made: HKError?
            do { _ = try HKSample.fetched(batch, sharing: FetchedObjectParts()) } catch { made = error }
            #expect(reference != nil)
            #expect(made == reference)
        }
    }

    /// A row naming a source or device index outside its batch's tables (which
    /// `FetchedSampleDecoder` never makes) is refused as a malformed answer, not trapped on: the
    /// index used to subscript the table directly.
    @Test func aRowNamingAPartOutsideTheTablesIsRefused() throws {
        let type = HKQuantityTypeIdentifier.heartRate.rawValue
        for (source, device) in [(Int32(2), Int32?.none), (-1, nil), (Int32.max, nil), (nil, 1), (nil, Int32.min)] {
            let batch = FetchedSampleBatch(typeIdentifier: type, unit: "count/min", sources: [Self.watch, Self.phone], devices: [Self.band],
                                           rows: [FetchedSample(uuid: UUID(), startUS: Self.base, endUS: Self.base, value: .quantity(60),
                                                                source: source, device: device)])
            #expect(throws: HKError.self) { try HKSample.fetched(batch, sharing: FetchedObjectParts()) }
        }
    }
}
