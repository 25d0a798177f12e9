import COpenHealthProto
import Foundation
import HealthModel
import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct CorrelationMessagesTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func quantity(_ type: HKQuantityTypeIdentifier, _ value: Double) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type.rawValue, startDate: start, endDate: start,
                     value: .quantity(value, unit: "mmHg"), device: DeviceRecord(name: "Cuff"))
    }

    @Test func aCorrelationTravelsWithItsSamples() throws {
        let reading = SampleRecord(
            uuid: UUID(), typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue, startDate: Self.start, endDate: Self.start,
            value: .correlation([Self.quantity(.bloodPressureSystolic, 120), Self.quantity(.bloodPressureDiastolic, 80)]),
            metadata: ["note": .string("morning")], source: SourceRecord(bundleIdentifier: "org.example.bp", name: "BP", version: "2"))
        #expect(try SampleList(wire: SampleList([reading]).wireBytes()).samples == [reading])
    }

    @Test func aSampleWithBothAValueAndCorrelationObjectsIsRefused() throws {
        var sample = Openhealth__V1__Sample.initialized()
        let arena = WireArena()
        sample.value_case = OPENHEALTH__V1__SAMPLE__VALUE_CATEGORY_VALUE
        sample.category_value = 1
        var builder = SampleWireBuilder(in: arena)
        let member = builder.build(Self.quantity(.bloodPressureSystolic, 120))
        sample.n_correlation_objects = 1
        sample.correlation_objects = arena.messages([member])
        var batch = Openhealth__V1__SampleBatch.initialized()
        batch.n_samples = 1
        batch.samples = arena.messages([arena.message { $0 = sample }])
        #expect(throws: WireDecodeError.invalidField("a sample with a value cannot hold correlation objects")) {
            try SampleList(wire: ProtobufCodec.encode(batch))
        }
    }

    @Test func aCorrelationQueryRoundTrips() throws {
        let spec = CorrelationQuerySpec(
            typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue,
            predicate: .dateRange(start: Self.start, end: nil, strictStart: true, strictEnd: false),
            objectPredicates: [HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue: .sources(["org.example.bp"]),
                               HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue: .uuids([])])
        #expect(try CorrelationQuerySpec(wire: spec.wireBytes()) == spec)
    }
}
