import Foundation
import HealthModel
import Testing

@Suite(.timeLimit(.minutes(10))) struct CorrelationRulesTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let food = HKCorrelationTypeIdentifier.food.rawValue

    static func quantity(_ type: String, _ value: Double, _ unit: String, start: Date = start, seconds: Double = 0) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(seconds),
                     value: .quantity(value, unit: unit))
    }

    static func correlation(_ type: String, _ objects: [SampleRecord], seconds: Double = 0,
                            metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(seconds),
                     value: .correlation(objects), metadata: metadata)
    }

    func message(_ record: SampleRecord) -> String? {
        do {
            _ = try SampleValidator.canonicalized(record)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aBloodPressureReadingIsOneSystolicAndOneDiastolicAtTheSameTime() throws {
        let reading = Self.correlation(Self.bloodPressure, [Self.quantity(Self.systolic, 16, "kPa"), Self.quantity(Self.diastolic, 80, "mmHg")])
        let canonical = try SampleValidator.canonicalized(reading)
        guard case let .correlation(objects) = canonical.value else { Issue.record("not a correlation"); return }
        // In order, each converted to its canonical unit (16 kPa = 120.01 mmHg).
        #expect(objects.map(\.typeIdentifier) == [Self.systolic, Self.diastolic])
        #expect(abs((objects[0].value.quantityInCanonicalUnit ?? 0) - 120.0098) < 0.001)
        #expect(objects[1].value == .quantity(80, unit: "mmHg"))

        #expect(message(Self.correlation(Self.bloodPressure, [Self.quantity(Self.systolic, 120, "mmHg")]))
                == "HKCorrelationTypeIdentifierBloodPressure holds exactly one systolic and one diastolic sample, got 1 (BloodPressureSystolic)")
        #expect(message(Self.correlation(Self.bloodPressure, [Self.quantity(Self.systolic, 120, "mmHg"), Self.quantity(Self.systolic, 80, "mmHg")]))?
                .hasPrefix("HKCorrelationTypeIdentifierBloodPressure holds exactly one systolic and one diastolic sample, got 2") == true)
        let shifted = Self.quantity(Self.diastolic, 80, "mmHg", start: Self.start.addingTimeInterval(60))
        #expect(message(Self.correlation(Self.bloodPressure, [Self.quantity(Self.systolic, 120, "mmHg"), shifted], seconds: 60))
                == "HKCorrelationTypeIdentifierBloodPressure: the systolic and diastolic samples must have the correlation's start and end dates")
        #expect(message(Self.correlation(Self.bloodPressure, [Self.quantity(Self.systolic, 120, "mmHg"), Self.quantity(HKQuantityTypeIdentifier.heartRate.rawValue, 60, "count/min")]))
                == "HKCorrelationTypeIdentifierBloodPressure cannot hold HKQuantityTypeIdentifierHeartRate (sample 2); it holds HKQuantityTypeIdentifierBloodPressureSystolic and HKQuantityTypeIdentifierBloodPressureDiastolic")
    }

    @Test func aFoodHoldsDietarySamplesWithinItsTimeSpan() {
        let energy = HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue
        let protein = HKQuantityTypeIdentifier.dietaryProtein.rawValue
        #expect(message(Self.correlation(Self.food, [Self.quantity(energy, 500, "kcal"), Self.quantity(protein, 20, "g", seconds: 600)], seconds: 600)) == nil)
        #expect(message(Self.correlation(Self.food, [Self.quantity(energy, 500, "kcal", seconds: 601)], seconds: 600))
                == "HKCorrelationTypeIdentifierFood: every sample must lie within the correlation's start and end dates")
        #expect(message(Self.correlation(Self.food, [Self.quantity(HKQuantityTypeIdentifier.stepCount.rawValue, 5, "count")]))
                == "HKCorrelationTypeIdentifierFood cannot hold HKQuantityTypeIdentifierStepCount (sample 1); it holds dietary quantity samples (HKQuantityTypeIdentifierDietary…)")
        #expect(message(Self.correlation(Self.food, [Self.quantity(energy, 5, "g")]))
                == "sample 1 of the correlation: unit g is not compatible with HKQuantityTypeIdentifierDietaryEnergyConsumed (expected a unit like kcal)")
        #expect(message(Self.correlation(Self.food, [])) == "HKCorrelationTypeIdentifierFood: a correlation needs at least one sample")
        #expect(message(Self.correlation(Self.food, Array(repeating: Self.quantity(energy, 1, "kcal"), count: 101)))
                == "HKCorrelationTypeIdentifierFood: a correlation holds at most 100 samples")
    }

    @Test func correlationsDoNotNestOrCarrySyncIdentifiers() {
        let inner = Self.correlation(Self.food, [Self.quantity(HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue, 5, "kcal")])
        #expect(message(Self.correlation(Self.food, [inner]))?.hasPrefix("HKCorrelationTypeIdentifierFood cannot hold HKCorrelationTypeIdentifierFood") == true)
        let synced = Self.correlation(Self.food, [Self.quantity(HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue, 5, "kcal")],
                                      metadata: [HKMetadataKeySyncIdentifier: .string("a"), HKMetadataKeySyncVersion: .number(1)])
        #expect(message(synced) == "HKCorrelationTypeIdentifierFood: HKMetadataKeySyncIdentifier is not supported on correlations or their samples")
        // A correlation type takes only correlations, and a correlation value only a correlation type.
        #expect(message(Self.quantity(Self.bloodPressure, 1, "mmHg")) == "HKCorrelationTypeIdentifierBloodPressure cannot hold this kind of value")
        #expect(message(Self.correlation(Self.systolic, [])) == "HKQuantityTypeIdentifierBloodPressureSystolic cannot hold this kind of value")
    }

    @Test func savingACorrelationNeedsSharePermissionForWhatItHolds() {
        let reading = Self.correlation(Self.bloodPressure, [Self.quantity(Self.systolic, 120, "mmHg"), Self.quantity(Self.diastolic, 80, "mmHg")])
        #expect(reading.shareTypeIdentifiers == [Self.systolic, Self.diastolic])
        #expect(reading.savedObjects.map(\.typeIdentifier) == [Self.bloodPressure, Self.systolic, Self.diastolic])
        #expect(Self.quantity(Self.systolic, 1, "mmHg").shareTypeIdentifiers == [Self.systolic])
        #expect(Self.quantity(Self.bloodPressure, 1, "mmHg").shareTypeIdentifiers == [])
    }

    @Test func foodHoldsEveryDietaryTypeAndNothingElse() {
        let types = CorrelationRules.memberTypes(of: Self.food).map(\.identifier)
        #expect(types.count == 39)
        #expect(types.contains(HKQuantityTypeIdentifier.dietaryWater.rawValue))
        #expect(types.allSatisfy { $0.hasPrefix("HKQuantityTypeIdentifierDietary") })
        #expect(CorrelationRules.memberTypes(of: Self.systolic).isEmpty)
    }

    /// What a reader must be allowed to read to see a correlation holding a type
    /// (`predicateForObjectsWithNoCorrelation()`): both pressures for either, every dietary type
    /// for a dietary one, nothing for a type no correlation holds.
    @Test func theCorrelatedTypesOfATypeAreEveryTypeItsCorrelationMayHold() {
        let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
        let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
        #expect(CorrelationRules.correlatedTypes(of: systolic) == [systolic, diastolic])
        #expect(CorrelationRules.correlatedTypes(of: diastolic) == [systolic, diastolic])
        let food = CorrelationRules.memberTypes(of: HKCorrelationTypeIdentifier.food.rawValue).map(\.identifier)
        #expect(food.count > 30)
        #expect(CorrelationRules.correlatedTypes(of: HKQuantityTypeIdentifier.dietaryProtein.rawValue) == food)
        #expect(CorrelationRules.correlatedTypes(of: HKQuantityTypeIdentifier.heartRate.rawValue).isEmpty)
        #expect(CorrelationRules.correlatedTypes(of: HKCorrelationTypeIdentifier.bloodPressure.rawValue).isEmpty)
    }
}

private extension SampleRecord.Value {
    var quantityInCanonicalUnit: Double? {
        if case let .quantity(value, _) = self { return value }
        return nil
    }
}
