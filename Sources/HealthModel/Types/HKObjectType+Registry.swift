/// HealthKit's factory functions, answered from the registry. Each returns the one shared
/// instance for its identifier, or nil when HealthKit defines no such type.
extension HKObjectType {
    public static func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        ObjectTypeRegistry.quantityTypes[identifier]
    }

    public static func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        ObjectTypeRegistry.categoryTypes[identifier]
    }

    public static func characteristicType(
        forIdentifier identifier: HKCharacteristicTypeIdentifier
    ) -> HKCharacteristicType? {
        ObjectTypeRegistry.characteristicTypes[identifier]
    }

    public static func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
        ObjectTypeRegistry.correlationTypes[identifier]
    }

    /// HealthKit's `scoredAssessmentType(forIdentifier:)` (GAD-7, PHQ-9); nil for any other identifier.
    public static func scoredAssessmentType(
        forIdentifier identifier: HKScoredAssessmentTypeIdentifier
    ) -> HKScoredAssessmentType? {
        ObjectTypeRegistry.scoredAssessmentTypes[identifier]
    }

    /// HealthKit's `documentType(forIdentifier:)` (`.CDA`); nil for any other identifier.
    public static func documentType(forIdentifier identifier: HKDocumentTypeIdentifier) -> HKDocumentType? {
        ObjectTypeRegistry.documentTypes[identifier]
    }

    /// HealthKit's `clinicalType(forIdentifier:)`; nil for any other identifier.
    public static func clinicalType(forIdentifier identifier: HKClinicalTypeIdentifier) -> HKClinicalType? {
        ObjectTypeRegistry.clinicalTypes[identifier]
    }

    public static func workoutType() -> HKWorkoutType { ObjectTypeRegistry.workout }

    public static func activitySummaryType() -> HKActivitySummaryType { ObjectTypeRegistry.activitySummary }

    public static func electrocardiogramType() -> HKElectrocardiogramType { ObjectTypeRegistry.electrocardiogram }

    public static func stateOfMindType() -> HKStateOfMindType { ObjectTypeRegistry.stateOfMind }

    /// HealthKit's `audiogramSampleType()`.
    public static func audiogramSampleType() -> HKAudiogramSampleType { ObjectTypeRegistry.audiogram }
    /// HealthKit's `visionPrescriptionType()` (iOS 16): the one `HKPrescriptionType`.
    public static func visionPrescriptionType() -> HKPrescriptionType { ObjectTypeRegistry.visionPrescription }

    /// HealthKit's `seriesType(forIdentifier:)`: the workout route and heartbeat series types by
    /// their identifiers (`HKWorkoutRouteTypeIdentifier`, `HKDataTypeIdentifierHeartbeatSeries`);
    /// nil for any other string.
    public static func seriesType(forIdentifier identifier: String) -> HKSeriesType? {
        ObjectTypeRegistry.byIdentifier[identifier] as? HKSeriesType
    }

    /// Registry lookup for identifier strings arriving from untrusted peers; nil if unknown.
    /// Any string is safe to pass: this is a dictionary lookup, nothing is parsed.
    public static func type(forIdentifier identifier: String) -> HKObjectType? {
        ObjectTypeRegistry.byIdentifier[identifier]
    }

    /// Every type the model knows, in a stable order (see `ObjectTypeRegistry.allTypes`).
    public static var allTypes: [HKObjectType] { ObjectTypeRegistry.allTypes }
}
