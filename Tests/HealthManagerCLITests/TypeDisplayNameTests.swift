import HealthManagerCLI
import Testing

@Suite(.timeLimit(.minutes(10))) struct TypeDisplayNameTests {
    @Test(arguments: [
        ("HKQuantityTypeIdentifierHeartRate", "HeartRate", "Heart Rate"),
        ("HKQuantityTypeIdentifierVO2Max", "VO2Max", "VO2 Max"),
        ("HKQuantityTypeIdentifierUVExposure", "UVExposure", "UV Exposure"),
        ("HKQuantityTypeIdentifierDietaryVitaminB12", "DietaryVitaminB12", "Dietary Vitamin B12"),
        ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "HeartRateVariabilitySDNN", "Heart Rate Variability SDNN"),
        ("HKQuantityTypeIdentifierForcedExpiratoryVolume1", "ForcedExpiratoryVolume1", "Forced Expiratory Volume 1"),
        ("HKCategoryTypeIdentifierSleepAnalysis", "SleepAnalysis", "Sleep Analysis"),
        ("HKWorkoutTypeIdentifier", "Workout", "Workout"),
        ("HKWorkoutRouteTypeIdentifier", "WorkoutRoute", "Workout Route"),
        ("HKDataTypeIdentifierHeartbeatSeries", "HeartbeatSeries", "Heartbeat Series"),
        ("HKDataTypeStateOfMind", "StateOfMind", "State Of Mind"),
        ("HKDataTypeIdentifierAudiogram", "Audiogram", "Audiogram"),
        ("HKDataType", "HKDataType", "HK Data Type"),
        ("SomethingElse", "SomethingElse", "Something Else"),
    ])
    func namesFromIdentifiers(identifier: String, short: String, words: String) {
        #expect(TypeDisplayName.shortName(of: identifier) == short)
        #expect(TypeDisplayName.words(of: identifier) == words)
    }
}
