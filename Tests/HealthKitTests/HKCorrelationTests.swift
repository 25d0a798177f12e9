import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

/// HKCorrelation in the SDK: what a save sends, how the broker's UUIDs are adopted, and what a
/// fetched correlation looks like.
@Suite(.timeLimit(.minutes(10))) struct HKCorrelationTests {
    let time = Date(timeIntervalSince1970: 1_700_000_000)

    func reading(_ high: Double, _ low: Double) -> (HKCorrelation, HKQuantitySample, HKQuantitySample) {
        let mmHg = HKUnit.millimeterOfMercury()
        let systolic = HKQuantitySample(type: HKQuantityType(.bloodPressureSystolic), quantity: HKQuantity(unit: mmHg, doubleValue: high),
                                        start: time, end: time)
        let diastolic = HKQuantitySample(type: HKQuantityType(.bloodPressureDiastolic), quantity: HKQuantity(unit: mmHg, doubleValue: low),
                                         start: time, end: time)
        return (HKCorrelation(type: HKCorrelationType(.bloodPressure), start: time, end: time, objects: [systolic, diastolic]),
                systolic, diastolic)
    }

    @Test func aSaveSendsTheSamplesInsideAndAdoptsEveryUUID() async throws {
        let sent = Mutex<[SampleRecord]>([])
        let assigned = (0..<6).map { _ in UUID() }
        let broker = try FakeBroker { call in
            guard let list = try? SampleList(wire: call.payload) else { return call.responder.fail(RPCStatus(.unimplemented), streaming: false) }
            sent.withLock { $0 = list.samples }
            call.responder.respond(SavedUUIDs(assigned).wireBytes())
        }
        defer { broker.close() }
        let (first, firstSystolic, firstDiastolic) = reading(120, 80)
        let (second, secondSystolic, secondDiastolic) = reading(130, 85)
        try await broker.store.save([first, second])

        // Samples go in a fixed order (by type identifier): diastolic, then systolic.
        #expect([first, firstDiastolic, firstSystolic, second, secondDiastolic, secondSystolic].map(\.uuid) == assigned)
        let records = sent.withLock { $0 }
        #expect(records.map(\.typeIdentifier) == [HKCorrelationTypeIdentifier.bloodPressure.rawValue, HKCorrelationTypeIdentifier.bloodPressure.rawValue])
        guard case let .correlation(objects) = records.first?.value else { Issue.record("not a correlation"); return }
        #expect(objects.map(\.value) == [.quantity(80, unit: "mmHg"), .quantity(120, unit: "mmHg")])
        // Sets of samples keep working after the UUIDs changed.
        #expect(first.objects.contains(firstSystolic) && first.objects(for: HKQuantityType(.bloodPressureSystolic)) == [firstSystolic])
    }

    @Test func aBrokenCorrelationFailsBeforeReachingTheBroker() async throws {
        let calls = Mutex(0)
        let broker = try FakeBroker { call in
            calls.withLock { $0 += 1 }
            call.responder.respond(SavedUUIDs([]).wireBytes())
        }
        defer { broker.close() }
        let (_, systolic, _) = reading(120, 80)
        let lonely = HKCorrelation(type: HKCorrelationType(.bloodPressure), start: time, end: time, objects: [systolic])
        await #expect(throws: HKError.self) { try await broker.store.save(lonely) }
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func aFetchedCorrelationHoldsItsFetchedSamples() throws {
        let source = SourceRecord(bundleIdentifier: "org.example.bp", name: "BP", version: "2")
        let systolic = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue,
                                    startDate: time, endDate: time, value: .quantity(120, unit: "mmHg"), source: source)
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue,
                                  startDate: time, endDate: time, value: .correlation([systolic]), source: source)
        let fetched = try #require(try HKSample.fetched(record) as? HKCorrelation)
        #expect(fetched.uuid == record.uuid && fetched.correlationType == HKCorrelationType(.bloodPressure))
        let object = try #require(fetched.objects.first as? HKQuantitySample)
        #expect(object.uuid == systolic.uuid && object.quantity.doubleValue(for: .millimeterOfMercury()) == 120)
        #expect(object.sourceRevision.source.bundleIdentifier == "org.example.bp")
    }
}
