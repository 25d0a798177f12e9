import Foundation

/// Conversion between the SDK's classes and the wire's `SampleRecord`.
extension HKSample {
    /// The record `save` sends. The UUID is this side's placeholder (the broker ignores it and
    /// assigns its own); the source is left to the broker, which takes it from the connection.
    func saveRecord() throws(HKError) -> SampleRecord {
        if let metadataError { throw metadataError }
        if let workout = self as? HKWorkout, let error = workout.eventMetadataError { throw error }
        var value = recordValue
        if let correlation = self as? HKCorrelation {
            value = .correlation(try correlation.orderedObjects.map { (object) throws(HKError) in try object.saveRecord() })
        }
        return SampleRecord(uuid: uuid, typeIdentifier: sampleType.identifier, startDate: startDate, endDate: endDate,
                            value: value, metadata: metadataValues ?? [:], device: device?.record,
                            quantitySeries: (self as? HKQuantitySample)?.series)
    }

    /// The sample for a record the broker sent. A record whose type or value kind the SDK does
    /// not know means the broker and SDK disagree on the protocol, not that the app erred.
    /// `parts`: one per answer, so its objects share what their records repeat.
    static func fetched(_ record: SampleRecord, sharing parts: FetchedObjectParts = FetchedObjectParts()) throws(HKError) -> HKSample {
        switch (parts.type(record.typeIdentifier), record.value) {
        case let (type as HKQuantityType, .quantity(value, unit)):
            // HealthKit's fetched quantity samples are of the subclass for the type's aggregation.
            if type.aggregationStyle == .cumulative {
                return HKCumulativeQuantitySample(type: type, fetched: record, value: value, unit: unit, parts: parts)
            }
            return HKDiscreteQuantitySample(type: type, fetched: record, value: value, unit: unit, parts: parts)
        case let (type as HKCategoryType, .category(value)):
            return HKCategorySample(type: type, fetched: record, value: value, parts: parts)
        case let (_ as HKWorkoutType, .workout(workout)):
            guard let activityType = HKWorkoutActivityType(rawValue: workout.activityType) else {
                throw HKError(.unknownError, "healthd sent a workout activity type this SDK does not know; "
                              + "the SDK and healthd versions may not match")
            }
            return try HKWorkout(fetched: record, workout, activityType: activityType, parts: parts)
        case let (type as HKSeriesType, .workoutRoute(count)) where type.identifier == HKWorkoutRouteTypeIdentifier:
            return HKWorkoutRoute(type: type, fetched: record, count: count, parts: parts)
        case let (type as HKSeriesType, .heartbeatSeries(series)) where type.identifier == HKDataTypeIdentifierHeartbeatSeries:
            return HKHeartbeatSeriesSample(type: type, fetched: record, count: series.count, parts: parts)
        case let (type as HKElectrocardiogramType, .electrocardiogram(ecg)):
            return HKElectrocardiogram(type: type, fetched: record, ecg, parts: parts)
        case let (type as HKStateOfMindType, .stateOfMind(stateOfMind)):
            return try HKStateOfMind(type: type, fetched: record, stateOfMind, parts: parts)
        case let (type as HKScoredAssessmentType, .scoredAssessment(assessment)):
            let sample: HKScoredAssessment? = switch type.identifier {
            case HKScoredAssessmentTypeIdentifier.GAD7.rawValue: HKGAD7Assessment(type: type, fetched: record, assessment, parts: parts)
            case HKScoredAssessmentTypeIdentifier.PHQ9.rawValue: HKPHQ9Assessment(type: type, fetched: record, assessment, parts: parts)
            default: nil
            }
            guard let sample else {
                throw HKError(.unknownError, "healthd sent an assessment answer this SDK does not know; "
                              + "the SDK and healthd versions may not match")
            }
            return sample
        case let (type as HKAudiogramSampleType, .audiogram(audiogram)):
            guard let sample = HKAudiogramSample(type: type, fetched: record, audiogram, parts: parts) else {
                throw HKError(.unknownError, "healthd sent an audiogram test side or conduction type this SDK does not know; "
                              + "the SDK and healthd versions may not match")
            }
            return sample
        case let (type as HKDocumentType, .document):
            // `document` stays nil, as HealthKit leaves it outside HKDocumentQuery.
            return HKCDADocumentSample(type: type, fetched: record, parts: parts)
        case let (type as HKClinicalType, .clinicalRecord(clinical)):
            return HKClinicalRecord(type: type, fetched: record, clinical, parts: parts)
        case let (type as HKPrescriptionType, .visionPrescription(prescription)):
            return try HKVisionPrescription.fetched(type: type, record: record, prescription, parts: parts)
        case let (type as HKMedicationDoseEventType, .medicationDoseEvent(dose)):
            return try HKMedicationDoseEvent(type: type, fetched: record, dose, parts: parts)
        case let (type as StoredUserAnnotatedMedicationType, .userAnnotatedMedication(medication)):
            return UserAnnotatedMedicationObject(type: type, fetched: record, medication, parts: parts)
        case let (type as HKCorrelationType, .correlation(objects)):
            return HKCorrelation(type: type, fetched: record,
                                 objects: try objects.map { (object) throws(HKError) in try fetched(object, sharing: parts) },
                                 parts: parts)
        default:
            throw HKError(.unknownError,
                          "healthd sent a sample of type \(record.typeIdentifier.prefix(100)) this SDK cannot represent; "
                          + "the SDK and healthd versions may not match")
        }
    }
}
