/// The one table of what each quantity type can hold. `SampleValidator` checks every saved
/// quantity against it after converting to the row's unit; statistics read it to bound sums;
/// docs/value-ranges.md is generated from it (`ValueRangeDocTests` fails when the doc is stale).
///
/// Where HealthKit is silent, Health Connect's per-record bounds are used
/// (androidx/androidx health/connect/connect-client/.../records/*Record.kt, their
/// `requireInRange`/`requireNotLess`/`requireNotMore` calls and "Valid range" docs). Health
/// Connect's lower bound of 1 for step and push counts is relaxed to 0 because HealthKit stores
/// zero counts. Every other type gets at least a sign rule and the general `ceiling`.
public enum QuantityValueRanges {
    /// The upper bound of a type with no known physical limit, in its row's unit. Far above any
    /// real measurement, and small enough that the sum of 2^53 samples (~9e27) stays finite.
    public static let ceiling = 1e12

    public static func range(for identifier: HKQuantityTypeIdentifier) -> QuantityValueRange? {
        byIdentifier[identifier]
    }

    private static let byIdentifier: [HKQuantityTypeIdentifier: QuantityValueRange] =
        Dictionary(all.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })

    private static func nonNegative(_ identifier: HKQuantityTypeIdentifier, _ unit: String) -> QuantityValueRange {
        QuantityValueRange(identifier, 0...ceiling, unit, .signOnly)
    }

    private static func percentage(_ identifier: HKQuantityTypeIdentifier, _ reason: QuantityValueRange.Reason) -> QuantityValueRange {
        QuantityValueRange(identifier, 0...100, "%", reason)
    }

    // Health Connect's record names, cited once each.
    private static let heartRateRecord = QuantityValueRange.Reason.healthConnect("HeartRateRecord: 1–300 bpm")
    private static let restingHeartRateRecord = QuantityValueRange.Reason.healthConnect("RestingHeartRateRecord: 0–300 bpm")
    private static let stepsRecord = QuantityValueRange.Reason.healthConnect("StepsRecord: count ≤ 1,000,000 per record (HC's lower bound 1 relaxed to 0)")
    private static let weightRecord = QuantityValueRange.Reason.healthConnect("WeightRecord: 0–1000 kg")
    private static let temperatureRecord = QuantityValueRange.Reason.healthConnect("BodyTemperatureRecord: 0–100 °C")
    private static let distanceRecord = QuantityValueRange.Reason.healthConnect("DistanceRecord: 0–1,000,000 m")
    private static let energyRecord = QuantityValueRange.Reason.healthConnect("ActiveCaloriesBurnedRecord: 0–1,000,000 kcal")
    private static let speedRecord = QuantityValueRange.Reason.healthConnect("SpeedRecord: 0–1,000,000 m/s")
    private static let powerRecord = QuantityValueRange.Reason.healthConnect("PowerRecord: 0–100,000 W")
    private static let percentRecord = QuantityValueRange.Reason.healthConnect("OxygenSaturationRecord/BodyFatRecord: 0–100 %")
    private static let fraction = QuantityValueRange.Reason.physical("a share of a whole")

    public static let all: [QuantityValueRange] = [
        // Body measurements
        QuantityValueRange(.appleSleepingWristTemperature, 0...100, "degC", temperatureRecord),
        percentage(.bodyFatPercentage, percentRecord),
        QuantityValueRange(.bodyMass, 0...1000, "kg", weightRecord),
        QuantityValueRange(.bodyMassIndex, 0...1000, "count", .physical("mass ≤ 1000 kg over height ≥ 1 m")),
        nonNegative(.electrodermalActivity, "S"),
        QuantityValueRange(.height, 0...3, "m", .healthConnect("HeightRecord: 0–3 m")),
        QuantityValueRange(.leanBodyMass, 0...1000, "kg", .healthConnect("LeanBodyMassRecord: 0–1000 kg")),
        QuantityValueRange(.waistCircumference, 0...10, "m", .physical("a body, not a building: ≤ 10 m")),
        // Activity and fitness
        QuantityValueRange(.activeEnergyBurned, 0...1_000_000, "kcal", energyRecord),
        QuantityValueRange(.appleExerciseTime, 0...ceiling, "min", .signOnly),
        QuantityValueRange(.appleMoveTime, 0...ceiling, "min", .signOnly),
        QuantityValueRange(.appleStandTime, 0...ceiling, "min", .signOnly),
        QuantityValueRange(.basalEnergyBurned, 0...1_000_000, "kcal", .healthConnect("BasalMetabolicRateRecord/TotalCaloriesBurnedRecord: 0–1,000,000 kcal")),
        QuantityValueRange(.crossCountrySkiingSpeed, 0...1_000_000, "m/s", speedRecord),
        QuantityValueRange(.cyclingCadence, 0...10_000, "count/min", .healthConnect("CyclingPedalingCadenceRecord: 0–10,000 rpm")),
        QuantityValueRange(.cyclingFunctionalThresholdPower, 0...100_000, "W", powerRecord),
        QuantityValueRange(.cyclingPower, 0...100_000, "W", powerRecord),
        QuantityValueRange(.cyclingSpeed, 0...1_000_000, "m/s", speedRecord),
        QuantityValueRange(.distanceCrossCountrySkiing, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distanceCycling, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distanceDownhillSnowSports, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distancePaddleSports, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distanceRowing, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distanceSkatingSports, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distanceSwimming, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distanceWalkingRunning, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.distanceWheelchair, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.estimatedWorkoutEffortScore, 0...10, "appleEffortScore", .physical("HealthKit's effort score runs 1–10")),
        QuantityValueRange(.flightsClimbed, 0...1_000_000, "count", .healthConnect("FloorsClimbedRecord: 0–1,000,000")),
        nonNegative(.nikeFuel, "count"),
        QuantityValueRange(.paddleSportsSpeed, 0...1_000_000, "m/s", speedRecord),
        nonNegative(.physicalEffort, "kcal/(kg*hr)"),
        QuantityValueRange(.pushCount, 0...1_000_000, "count", .healthConnect("WheelchairPushesRecord: count ≤ 1,000,000 (HC's lower bound 1 relaxed to 0)")),
        QuantityValueRange(.rowingSpeed, 0...1_000_000, "m/s", speedRecord),
        QuantityValueRange(.runningPower, 0...100_000, "W", powerRecord),
        QuantityValueRange(.runningSpeed, 0...1_000_000, "m/s", speedRecord),
        QuantityValueRange(.stepCount, 0...1_000_000, "count", stepsRecord),
        QuantityValueRange(.swimmingStrokeCount, 0...1_000_000, "count", .healthConnect("SwimmingStrokesRecord, as StepsRecord: ≤ 1,000,000")),
        QuantityValueRange(.underwaterDepth, 0...11_000, "m", .physical("the deepest ocean point is ~10,935 m")),
        QuantityValueRange(.workoutEffortScore, 0...10, "appleEffortScore", .physical("HealthKit's effort score runs 1–10")),
        // Hearing: sound pressure levels
        QuantityValueRange(.environmentalAudioExposure, 0...194, "dBASPL", .physical("0 dB is the threshold of hearing; 194 dB SPL is the loudest undistorted sound in air")),
        QuantityValueRange(.environmentalSoundReduction, 0...194, "dBASPL", .physical("0 dB is the threshold of hearing; 194 dB SPL is the loudest undistorted sound in air")),
        QuantityValueRange(.headphoneAudioExposure, 0...194, "dBASPL", .physical("0 dB is the threshold of hearing; 194 dB SPL is the loudest undistorted sound in air")),
        // Heart
        percentage(.atrialFibrillationBurden, fraction),
        QuantityValueRange(.heartRate, 1...300, "count/min", heartRateRecord),
        QuantityValueRange(.heartRateRecoveryOneMinute, 0...300, "count/min", restingHeartRateRecord),
        QuantityValueRange(.heartRateVariabilitySDNN, 0...ceiling, "ms", .signOnly),
        percentage(.peripheralPerfusionIndex, fraction),
        QuantityValueRange(.restingHeartRate, 0...300, "count/min", restingHeartRateRecord),
        QuantityValueRange(.vo2Max, 0...100, "ml/(kg*min)", .healthConnect("Vo2MaxRecord: 0–100 mL/(kg·min)")),
        QuantityValueRange(.walkingHeartRateAverage, 0...300, "count/min", restingHeartRateRecord),
        // Mobility
        percentage(.appleWalkingSteadiness, fraction),
        nonNegative(.runningGroundContactTime, "ms"),
        nonNegative(.runningStrideLength, "m"),
        nonNegative(.runningVerticalOscillation, "cm"),
        QuantityValueRange(.sixMinuteWalkTestDistance, 0...1_000_000, "m", distanceRecord),
        QuantityValueRange(.stairAscentSpeed, 0...1_000_000, "m/s", speedRecord),
        QuantityValueRange(.stairDescentSpeed, 0...1_000_000, "m/s", speedRecord),
        percentage(.walkingAsymmetryPercentage, fraction),
        percentage(.walkingDoubleSupportPercentage, fraction),
        QuantityValueRange(.walkingSpeed, 0...1_000_000, "m/s", speedRecord),
        nonNegative(.walkingStepLength, "m"),
        // Nutrition: amounts eaten cannot be negative
        nonNegative(.dietaryBiotin, "g"),
        nonNegative(.dietaryCaffeine, "g"),
        nonNegative(.dietaryCalcium, "g"),
        nonNegative(.dietaryCarbohydrates, "g"),
        nonNegative(.dietaryChloride, "g"),
        nonNegative(.dietaryCholesterol, "g"),
        nonNegative(.dietaryChromium, "g"),
        nonNegative(.dietaryCopper, "g"),
        QuantityValueRange(.dietaryEnergyConsumed, 0...1_000_000, "kcal", .healthConnect("NutritionRecord energy, as other energy records: 0–1,000,000 kcal")),
        nonNegative(.dietaryFatMonounsaturated, "g"),
        nonNegative(.dietaryFatPolyunsaturated, "g"),
        nonNegative(.dietaryFatSaturated, "g"),
        nonNegative(.dietaryFatTotal, "g"),
        nonNegative(.dietaryFiber, "g"),
        nonNegative(.dietaryFolate, "g"),
        nonNegative(.dietaryIodine, "g"),
        nonNegative(.dietaryIron, "g"),
        nonNegative(.dietaryMagnesium, "g"),
        nonNegative(.dietaryManganese, "g"),
        nonNegative(.dietaryMolybdenum, "g"),
        nonNegative(.dietaryNiacin, "g"),
        nonNegative(.dietaryPantothenicAcid, "g"),
        nonNegative(.dietaryPhosphorus, "g"),
        nonNegative(.dietaryPotassium, "g"),
        nonNegative(.dietaryProtein, "g"),
        nonNegative(.dietaryRiboflavin, "g"),
        nonNegative(.dietarySelenium, "g"),
        nonNegative(.dietarySodium, "g"),
        nonNegative(.dietarySugar, "g"),
        nonNegative(.dietaryThiamin, "g"),
        nonNegative(.dietaryVitaminA, "g"),
        nonNegative(.dietaryVitaminB12, "g"),
        nonNegative(.dietaryVitaminB6, "g"),
        nonNegative(.dietaryVitaminC, "g"),
        nonNegative(.dietaryVitaminD, "g"),
        nonNegative(.dietaryVitaminE, "g"),
        nonNegative(.dietaryVitaminK, "g"),
        QuantityValueRange(.dietaryWater, 0...100, "L", .healthConnect("HydrationRecord: 0–100 L")),
        nonNegative(.dietaryZinc, "g"),
        // Other
        percentage(.bloodAlcoholContent, fraction),
        QuantityValueRange(.bloodPressureDiastolic, 10...300, "mmHg", .healthConnect("BloodPressureRecord: diastolic 10–180 mmHg, 10–300 from SDK extension 17")),
        QuantityValueRange(.bloodPressureSystolic, 10...300, "mmHg", .healthConnect("BloodPressureRecord: systolic 10–200 mmHg, 20–300 from SDK extension 17")),
        nonNegative(.insulinDelivery, "IU"),
        nonNegative(.numberOfAlcoholicBeverages, "count"),
        nonNegative(.numberOfTimesFallen, "count"),
        nonNegative(.timeInDaylight, "min"),
        QuantityValueRange(.uvExposure, 0...100, "count", .physical("the UV index; the highest ever measured is ~43")),
        QuantityValueRange(.waterTemperature, -5...100, "degC", .physical("liquid water: sea water freezes near -2 °C, water boils at 100 °C")),
        // Reproductive health
        QuantityValueRange(.basalBodyTemperature, 0...100, "degC", .healthConnect("BasalBodyTemperatureRecord: 0–100 °C")),
        // Respiratory
        nonNegative(.appleSleepingBreathingDisturbances, "count"),
        QuantityValueRange(.forcedExpiratoryVolume1, 0...20, "L", .physical("no human lung holds 20 L")),
        QuantityValueRange(.forcedVitalCapacity, 0...20, "L", .physical("no human lung holds 20 L")),
        nonNegative(.inhalerUsage, "count"),
        percentage(.oxygenSaturation, percentRecord),
        nonNegative(.peakExpiratoryFlowRate, "L/min"),
        QuantityValueRange(.respiratoryRate, 0...1000, "count/min", .healthConnect("RespiratoryRateRecord: 0–1000 breaths/min")),
        // Lab and test results
        QuantityValueRange(.bloodGlucose, 0...900, "mg/dL", .healthConnect("BloodGlucoseRecord: 0–50 mmol/L (≈ 900 mg/dL)")),
        // Vital signs
        QuantityValueRange(.bodyTemperature, 0...100, "degC", temperatureRecord),
    ]
}
