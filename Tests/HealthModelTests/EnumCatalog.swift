@testable import HealthModel

/// The model's HealthKit enums by name, as (case name, raw value) lists, so table-driven tests
/// can look up the enum a row names. An enum a table mentions but this catalog lacks fails
/// the tests that read that table.
enum EnumCatalog {
    struct Case: Hashable {
        let name: String
        let raw: Int
    }

    static func cases(of enumName: String) -> [Case]? { all[enumName] }

    private static func entry<E: CaseIterable & RawRepresentable>(_: E.Type) -> (String, [Case])
    where E.RawValue: BinaryInteger {
        ("\(E.self)", E.allCases.map { Case(name: "\($0)", raw: Int($0.rawValue)) })
    }

    private static let all: [String: [Case]] = Dictionary(uniqueKeysWithValues: [
        // category_values.tsv
        entry(HKCategoryValue.self), entry(HKCategoryValueAppetiteChanges.self),
        entry(HKCategoryValueAppleStandHour.self), entry(HKCategoryValueAppleWalkingSteadinessEvent.self),
        entry(HKCategoryValueCervicalMucusQuality.self), entry(HKCategoryValueContraceptive.self),
        entry(HKCategoryValueEnvironmentalAudioExposureEvent.self),
        entry(HKCategoryValueHeadphoneAudioExposureEvent.self), entry(HKCategoryValueLowCardioFitnessEvent.self),
        entry(HKCategoryValueMenstrualFlow.self), entry(HKCategoryValueOvulationTestResult.self),
        entry(HKCategoryValuePregnancyTestResult.self), entry(HKCategoryValuePresence.self),
        entry(HKCategoryValueProgesteroneTestResult.self), entry(HKCategoryValueSeverity.self),
        entry(HKCategoryValueSleepAnalysis.self), entry(HKCategoryValueVaginalBleeding.self),
        entry(HKCategoryValueAudioExposureEvent.self),
        // workout tables
        entry(HKWorkoutActivityType.self), entry(HKWorkoutEventType.self),
        // characteristic_types.tsv
        entry(HKBiologicalSex.self), entry(HKBloodType.self), entry(HKFitzpatrickSkinType.self),
        entry(HKWheelchairUse.self), entry(HKActivityMoveMode.self),
        // enums.tsv
        entry(HKAuthorizationStatus.self), entry(HKAuthorizationRequestStatus.self), entry(HKUpdateFrequency.self),
        entry(HKQuantityAggregationStyle.self), entry(HKMetricPrefix.self),
        entry(HKHeartRateSensorLocation.self), entry(HKBodyTemperatureSensorLocation.self),
        entry(HKHeartRateMotionContext.self), entry(HKUserMotionContext.self), entry(HKWeatherCondition.self),
        entry(HKWorkoutSwimmingLocationType.self), entry(HKSwimmingStrokeStyle.self),
        entry(HKInsulinDeliveryReason.self), entry(HKBloodGlucoseMealTime.self), entry(HKVO2MaxTestType.self),
        entry(HKHeartRateRecoveryTestType.self), entry(HKAppleECGAlgorithmVersion.self),
        entry(HKDevicePlacementSide.self), entry(HKWaterSalinity.self),
        entry(HKCyclingFunctionalThresholdPowerTestType.self), entry(HKPhysicalEffortEstimationType.self),
        entry(HKWorkoutSessionLocationType.self), entry(HKWorkoutSessionState.self),
        entry(HKAppleWalkingSteadinessClassification.self),
        entry(HKAppleSleepingBreathingDisturbancesClassification.self),
        entry(HKElectrocardiogramClassification.self), entry(HKElectrocardiogramSymptomsStatus.self),
        entry(HKStateOfMindKind.self), entry(HKStateOfMindValenceClassification.self),
        entry(HKVisionPrescriptionType.self), entry(HKGAD7AssessmentRisk.self), entry(HKPHQ9AssessmentRisk.self),
    ])
}
