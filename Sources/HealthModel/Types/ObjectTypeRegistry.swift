/// Every object type the model knows, built once from the generated tables. There is one
/// shared instance per identifier; `HKObjectType`'s lookup functions hand these out.
enum ObjectTypeRegistry {
    static let quantityTypes: [HKQuantityTypeIdentifier: HKQuantityType] = Dictionary(
        uniqueKeysWithValues: QuantityTypeDefinition.all.map { definition in
            // The canonical units come from the table and are checked valid by the unit tests.
            (definition.identifier, HKQuantityType(identifier: definition.identifier,
                                                   canonicalUnit: HKUnit(from: definition.canonicalUnit),
                                                   aggregationStyle: definition.aggregationStyle))
        })

    static let categoryTypes: [HKCategoryTypeIdentifier: HKCategoryType] = Dictionary(
        uniqueKeysWithValues: CategoryTypeDefinition.all.map { definition in
            (definition.identifier, HKCategoryType(identifier: definition.identifier,
                                                   allowedValues: definition.allowedValues))
        })

    static let characteristicTypes: [HKCharacteristicTypeIdentifier: HKCharacteristicType] = Dictionary(
        uniqueKeysWithValues: HKCharacteristicTypeIdentifier.registered.map { ($0, HKCharacteristicType(identifier: $0)) })

    static let correlationTypes: [HKCorrelationTypeIdentifier: HKCorrelationType] = Dictionary(
        uniqueKeysWithValues: HKCorrelationTypeIdentifier.registered.map { ($0, HKCorrelationType(identifier: $0)) })

    static let scoredAssessmentTypes: [HKScoredAssessmentTypeIdentifier: HKScoredAssessmentType] = Dictionary(
        uniqueKeysWithValues: HKScoredAssessmentTypeIdentifier.registered.map { ($0, HKScoredAssessmentType(identifier: $0)) })

    static let documentTypes: [HKDocumentTypeIdentifier: HKDocumentType] = Dictionary(
        uniqueKeysWithValues: HKDocumentTypeIdentifier.registered.map { ($0, HKDocumentType(identifier: $0)) })
    static let clinicalTypes: [HKClinicalTypeIdentifier: HKClinicalType] = Dictionary(
        uniqueKeysWithValues: HKClinicalTypeIdentifier.registered.map { ($0, HKClinicalType(identifier: $0)) })

    static let workout = HKWorkoutType()
    static let workoutRoute = HKSeriesType(identifier: HKWorkoutRouteTypeIdentifier)
    static let heartbeatSeries = HKSeriesType(identifier: HKDataTypeIdentifierHeartbeatSeries)
    static let activitySummary = HKActivitySummaryType()
    static let electrocardiogram = HKElectrocardiogramType()
    static let stateOfMind = HKStateOfMindType()
    static let audiogram = HKAudiogramSampleType()
    static let visionPrescription = HKPrescriptionType()
    static let medicationDoseEvent = HKMedicationDoseEventType()
    /// The medication type as apps see it (an `HKObjectType`, as Apple's) and as the store keeps
    /// it (`StoredUserAnnotatedMedicationType`, in `allTypes` and `byIdentifier`).
    static let userAnnotatedMedication = HKUserAnnotatedMedicationType()
    static let storedUserAnnotatedMedication = StoredUserAnnotatedMedicationType()

    /// All types in a stable order: quantity, category, characteristic and correlation types
    /// in table order, then workout, the series types, the activity summary, the electrocardiogram and State of Mind types,
    /// then the scored assessment types, the audiogram type, the document types, the clinical types
    /// the vision prescription type and the medication types.
    static let allTypes: [HKObjectType] =
        QuantityTypeDefinition.all.map { quantityTypes[$0.identifier]! as HKObjectType }
        + CategoryTypeDefinition.all.map { categoryTypes[$0.identifier]! as HKObjectType }
        + HKCharacteristicTypeIdentifier.registered.map { characteristicTypes[$0]! as HKObjectType }
        + HKCorrelationTypeIdentifier.registered.map { correlationTypes[$0]! as HKObjectType }
        + [workout, workoutRoute, heartbeatSeries, activitySummary, electrocardiogram, stateOfMind]
        + laterSampleTypes

    /// Apart from `allTypes`' sum, which the type checker cannot take one term longer.
    private static let scoredAssessmentTypesInOrder: [HKObjectType] =
        HKScoredAssessmentTypeIdentifier.registered.compactMap { scoredAssessmentTypes[$0] } + [audiogram]

    private static let documentTypesInOrder: [HKObjectType] =
        HKDocumentTypeIdentifier.registered.compactMap { documentTypes[$0] }

    private static let clinicalTypesInOrder: [HKObjectType] =
        HKClinicalTypeIdentifier.registered.compactMap { clinicalTypes[$0] }

    private static let laterSampleTypes: [HKObjectType] = scoredAssessmentTypesInOrder + documentTypesInOrder + clinicalTypesInOrder
        + [visionPrescription, medicationDoseEvent, storedUserAnnotatedMedication]

    static let byIdentifier: [String: HKObjectType] = Dictionary(
        uniqueKeysWithValues: allTypes.map { ($0.identifier, $0) })

    /// The instances of `identifier`'s type: the registered one and, where the stored kind's class
    /// is not Apple's (the medication type), the one Apple's SDK hands out. An archive decodes as
    /// the one of the class asked for.
    static func faces(_ identifier: String) -> [HKObjectType] {
        guard let registered = byIdentifier[identifier] else { return [] }
        return identifier == userAnnotatedMedication.identifier ? [userAnnotatedMedication, registered] : [registered]
    }
}
