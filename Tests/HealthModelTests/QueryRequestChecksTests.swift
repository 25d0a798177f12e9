import Foundation
import HealthModel
import Testing

/// The request checks healthd's services and the `query-spec` fuzz target both call
/// (`QueryRequestChecks.swift`): each refusal is errorInvalidArgument naming what is wrong, and
/// what passes is what the broker then reads.
@Suite(.timeLimit(.minutes(10))) struct QueryRequestChecksTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let bloodType = HKCharacteristicTypeIdentifier.bloodType.rawValue
    static let pressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue

    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as HKError {
            return error.code == .errorInvalidArgument ? error.message : "code \(error.code)"
        } catch {
            return "not an HKError: \(error)"
        }
    }

    @Test func aSampleQueryNeedsASampleTypeALimitItsSortKeysAndAPredicateThatCompiles() {
        #expect(Self.refusal { try SampleQuerySpec(typeIdentifier: "HKNoSuchType").check() } == "unknown type identifier HKNoSuchType")
        #expect(Self.refusal { try SampleQuerySpec(typeIdentifier: Self.bloodType).check() } == "\(Self.bloodType) is not a sample type")
        #expect(Self.refusal { try SampleQuerySpec(typeIdentifier: Self.steps, limit: -1).check() } == "limit must not be negative")
        let sorted = SampleQuerySpec(typeIdentifier: Self.steps, sort: [SampleSort(.workout(.duration), ascending: true)])
        #expect(Self.refusal { try sorted.check() }?.contains("sorts workouts only") == true)
        let metres = SampleQuerySpec(typeIdentifier: Self.steps, predicate: .quantity(.greaterThan, value: 1, unit: "m"))
        #expect(Self.refusal { try metres.check() } != nil, "a unit that does not fit the type")
        #expect(Self.refusal { try SampleQuerySpec(typeIdentifier: Self.steps, limit: 5).check() } == nil)
    }

    @Test func aChangeQueryAndAnAnchoredQuerysDescriptorsAreCheckedAlike() {
        #expect(Self.refusal { try SampleQuerySpec.checkChangeQuery(typeIdentifier: Self.bloodType, predicate: nil) } != nil)
        let metres = SamplePredicate.quantity(.greaterThan, value: 1, unit: "m")
        #expect(Self.refusal { try SampleQuerySpec.checkChangeQuery(typeIdentifier: Self.steps, predicate: metres) } != nil)
        #expect(Self.refusal { _ = try DescriptorUnion.checkedParts([]) } == "an anchored query needs at least one query descriptor")
        #expect(Self.refusal {
            _ = try DescriptorUnion.checkedParts([DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: nil),
                                                  DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: metres)])
        } != nil, "one bad descriptor refuses the query")
        let parts = try? DescriptorUnion.checkedParts([DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: nil),
                                                       DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: nil)])
        #expect(parts == [DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: nil)])
    }

    @Test func aCorrelationQueryNamesOnlyTypesItsCorrelationHolds() {
        #expect(Self.refusal { try CorrelationQuerySpec(typeIdentifier: Self.steps).check() } == "\(Self.steps) is not a correlation type")
        let foreign = CorrelationQuerySpec(typeIdentifier: Self.pressure, objectPredicates: [Self.steps: .categoryValue(.equalTo, 1)])
        #expect(Self.refusal { try foreign.check() } == "a sample predicate names \(Self.steps), which \(Self.pressure) cannot hold")
        #expect(Self.refusal { try CorrelationQuerySpec(typeIdentifier: Self.pressure, limit: -1).check() } == "limit must not be negative")
        #expect(Self.refusal { try CorrelationQuerySpec(typeIdentifier: Self.pressure).check() } == nil)
    }

    @Test func onlySampleTypesCanBeDeleted() {
        #expect(Self.refusal { _ = try HKObjectType.deletableSampleType(Self.bloodType) }
                == "\(Self.bloodType) is not a sample type; only samples can be deleted")
        #expect(Self.refusal { _ = try HKObjectType.deletableSampleType("HKNoSuchType") } == "unknown type identifier HKNoSuchType")
        #expect(Self.refusal { _ = try HKObjectType.deletableSampleType(Self.steps) } == nil)
    }
}
