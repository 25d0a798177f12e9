import HealthModel
import Testing

@Suite(.timeLimit(.minutes(10))) struct PreferredUnitDefaultsTests {
    @Test func everyDefaultCanMeasureItsType() {
        for case let type as HKQuantityType in HKObjectType.allTypes {
            for system in MeasurementSystem.allCases {
                let unit = PreferredUnitDefaults.unit(for: type, in: system)
                #expect(type.is(compatibleWith: unit), "\(type.identifier) in \(system): \(unit.unitString)")
            }
        }
    }

    @Test func theTableDiffersWhereTheSystemsDo() {
        func units(_ identifier: HKQuantityTypeIdentifier) -> [String] {
            MeasurementSystem.allCases.map { PreferredUnitDefaults.unit(for: HKQuantityType(identifier), in: $0).unitString }
        }
        #expect(units(.bodyMass) == ["kg", "lb", "st"])
        #expect(units(.height) == ["cm", "in", "in"])
        #expect(units(.distanceWalkingRunning) == ["km", "mi", "mi"])
        #expect(units(.bodyTemperature) == ["degC", "degF", "degC"])
        #expect(units(.bloodGlucose) == ["mmol<180.1558800000541>/L", "mg/dL", "mmol<180.1558800000541>/L"])
        #expect(units(.heartRate) == ["count/min", "count/min", "count/min"])
        #expect(units(.activeEnergyBurned) == ["kcal", "kcal", "kcal"])       // canonical, not listed
        #expect(units(.bloodPressureSystolic) == ["mmHg", "mmHg", "mmHg"])
    }
}
