public import Foundation

/// The checks every sample passes before the broker stores it. Pure, so the SDK can run the
/// same checks early, but only the broker's run is authoritative.
///
/// Messages name the type, field or metadata key that is wrong. Only a refused quantity names
/// its value (`QuantityValueCheck`): the message goes back to the app that sent the value and is
/// never logged (the access log records a refusal's code only, `CallRefusal`).
public enum SampleValidator {
    /// Validates a whole save in place: every record (see `canonicalize(_:)`), and no two
    /// records with the same sync identifier (which one should win would be ambiguous). Converts
    /// each record to its type's canonical unit where it lies, so a batch is neither copied nor
    /// rebuilt (healthd's save, import and user entries). A message for a batch of more than one
    /// names the failing sample's position.
    public static func canonicalize(batch records: inout [SampleRecord]) throws(HKError) {
        let count = records.count
        var lookups = RecentLookups()
        try checkEach(count) { (index) throws(HKError) -> SyncIdentity? in
            try canonicalize(&records[index], using: &lookups)
            return records[index].syncIdentity
        }
    }

    /// The same checks, with the same errors, building nothing: what the SDK runs before it
    /// sends a save. The canonical values are healthd's to compute (it canonicalizes again, and
    /// only its run is authoritative); each record is converted in a scratch copy on the stack,
    /// which for quantity and category samples (a batch's usual content) allocates nothing.
    public static func check(batch records: [SampleRecord]) throws(HKError) {
        var lookups = RecentLookups()
        try checkEach(records.count) { (index) throws(HKError) -> SyncIdentity? in
            var scratch = records[index]
            try canonicalize(&scratch, using: &lookups)
            return scratch.syncIdentity
        }
    }

    /// `canonicalize(batch:)` returning the converted copy (tests and one-off callers).
    public static func canonicalized(batch records: [SampleRecord]) throws(HKError) -> [SampleRecord] {
        var result = records
        try canonicalize(batch: &result)
        return result
    }

    /// The batch rules both of the above share: `validate(index)` checks (and may convert) the
    /// record at `index` and returns its sync identity; its error gains the record's position,
    /// and a sync identifier seen twice is refused.
    private static func checkEach(_ count: Int, _ validate: (Int) throws(HKError) -> SyncIdentity?) throws(HKError) {
        var syncIdentifiers: [String: Int] = [:]
        for index in 0 ..< count {
            let identity: SyncIdentity?
            do {
                identity = try validate(index)
            } catch {
                guard count > 1 else { throw error }
                throw HKError(error.code, "sample \(index + 1) of \(count): \(error.message)")
            }
            if let identity {
                // Sized for the batch at its first identifier: an import's records all carry one,
                // and growing the table rehashed every identifier seen so far.
                if syncIdentifiers.isEmpty { syncIdentifiers.reserveCapacity(count - index) }
                if let first = syncIdentifiers[identity.identifier] {
                    throw HKError(.errorInvalidArgument,
                                  "samples \(first + 1) and \(index + 1) have the same \(HKMetadataKeySyncIdentifier); save one of them")
                }
                syncIdentifiers[identity.identifier] = index
            }
        }
    }

    /// Validates `record` and returns it with its value converted to the type's canonical unit.
    public static func canonicalized(_ record: SampleRecord) throws(HKError) -> SampleRecord {
        var lookups = RecentLookups()
        return try canonicalized(record, using: &lookups)
    }

    /// `canonicalized(_:)` for one record of a stream (healthctl's import), with the stream's
    /// `lookups`: the same checks and result.
    public static func canonicalized(_ record: SampleRecord, using lookups: inout RecentLookups) throws(HKError) -> SampleRecord {
        var result = record
        try canonicalize(&result, using: &lookups)
        return result
    }

    /// Validates `record` and converts its value to the type's canonical unit in place. On a
    /// throw, `record` may be partly converted; callers drop it (the save fails whole).
    public static func canonicalize(_ record: inout SampleRecord) throws(HKError) {
        var lookups = RecentLookups()
        try canonicalize(&record, using: &lookups)
    }

    /// `canonicalize(_:)` with the type and unit plan of the records checked before it remembered
    /// in `lookups` (a batch's or a stream's).
    static func canonicalize(_ record: inout SampleRecord, using lookups: inout RecentLookups) throws(HKError) {
        guard let type = lookups.sampleType(record.typeIdentifier) else {
            throw HKError(.errorInvalidArgument, "unknown sample type \(record.typeIdentifier.prefix(100))")
        }
        try checkDates(record, of: type)
        try DeviceValidator.check(record.device, of: type.identifier)
        switch (type, record.value) {
        case let (quantityType as HKQuantityType, .quantity(value, unitString)):
            // Parsing, compatibility, conversion factor and range: once per type and unit.
            let plan = try lookups.plan(quantityType, unitString: unitString)
            if let series = record.quantitySeries {
                let (value, canonicalSeries) = try canonicalized(series, plan: plan, unitString: unitString, of: record, quantityType)
                record.value = value
                record.quantitySeries = canonicalSeries
            } else {
                let canonical = try QuantityValueCheck.canonical(value, plan: plan, unitString: unitString, of: quantityType)
                record.value = .quantity(canonical, unit: quantityType.canonicalUnit.unitString)
            }
        case (_, _) where record.quantitySeries != nil:
            throw HKError(.errorInvalidArgument, "\(type.identifier) is not a quantity type; only quantity samples can be series")
        case let (categoryType as HKCategoryType, .category(value)):
            guard categoryType.allowedValues.contains(value) else {
                throw HKError(.errorInvalidArgument, "\(type.identifier): value is not one of the type's category values")
            }
        case (is HKWorkoutType, .workout(let workout)):
            record.value = .workout(try WorkoutValidator.canonicalized(workout, of: record))
        case (_, .workoutRoute) where type.identifier == HKWorkoutRouteTypeIdentifier:
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): routes are saved with HKWorkoutRouteBuilder (insertRouteData, then finishRoute), not save(_:)")
        case let (_, .heartbeatSeries(series)) where type.identifier == HKDataTypeIdentifierHeartbeatSeries:
            guard let beats = series.beats, beats.count == series.count else {
                throw HKError(.errorInvalidArgument, "\(type.identifier): the series' heartbeats are missing; build it with HKHeartbeatSeriesBuilder")
            }
            try SeriesValidator.check(beats, start: record.startDate, end: record.endDate)
        case let (_ as HKElectrocardiogramType, .electrocardiogram(ecg)):
            try SeriesValidator.check(ecg)
        case let (_ as HKStateOfMindType, .stateOfMind(stateOfMind)):
            try StateOfMindValidator.check(stateOfMind, of: record)
        case let (assessmentType as HKScoredAssessmentType, .scoredAssessment(assessment)):
            guard let instrument = ScoredAssessmentRules.instrument(assessmentType.identifier) else {
                throw HKError(.errorInvalidArgument, "\(type.identifier) has no scoring rules")
            }
            try ScoredAssessmentRules.check(assessment, of: instrument)
        case let (_ as HKAudiogramSampleType, .audiogram(audiogram)):
            do {
                try AudiogramRules.check(audiogram)
            } catch {
                throw HKError(error.code, "\(type.identifier): \(error.message)")
            }
        case let (_ as HKDocumentType, .document(document)):
            try DocumentRules.check(document)
        case let (_ as HKClinicalType, .clinicalRecord(record)):
            try FHIRResourceRules.check(record)
        case let (_ as HKPrescriptionType, .visionPrescription(prescription)):
            try VisionPrescriptionRules.check(prescription, of: record)
        case let (_ as HKMedicationDoseEventType, .medicationDoseEvent(dose)):
            try MedicationRules.check(dose, of: record)
        case let (_ as StoredUserAnnotatedMedicationType, .userAnnotatedMedication(medication)):
            try MedicationRules.check(medication, of: record)
        case let (correlationType as HKCorrelationType, .correlation(objects)):
            record.value = .correlation(try CorrelationRules.canonicalizedObjects(objects, of: record, type: correlationType))
        default:
            throw HKError(.errorInvalidArgument, "\(type.identifier) cannot hold this kind of value")
        }
        try MetadataValidator.check(record.metadata, of: type, sampleType: type as? HKQuantityType)
    }

    /// A quantity series: its data in the canonical unit (each value checked as a single
    /// quantity would be), checked as a series, and the sample's quantity and summary computed
    /// here from the data — whatever a client sent for them is replaced.
    private static func canonicalized(_ series: QuantitySeries, plan: QuantityUnitPlan, unitString: String, of record: SampleRecord,
                                      _ type: HKQuantityType) throws(HKError) -> (SampleRecord.Value, QuantitySeries) {
        guard let data = series.data, data.count == series.count else {
            throw HKError(.errorInvalidArgument, "\(type.identifier): the series' quantities are missing; build it with HKQuantitySeriesSampleBuilder")
        }
        try QuantitySeriesRules.check(data, start: record.startDate, end: record.endDate)
        var canonicalData: [QuantitySeriesDatum] = []
        canonicalData.reserveCapacity(data.count)
        for (index, datum) in data.enumerated() {
            do {
                let value = try QuantityValueCheck.canonical(datum.value, plan: plan, unitString: unitString, of: type)
                canonicalData.append(QuantitySeriesDatum(value: value, start: datum.start, end: datum.end))
            } catch {
                throw HKError(error.code, "quantity \(index + 1) of the series: \(error.message)")
            }
        }
        guard let summary = QuantitySeries.summarizing(canonicalData, cumulative: type.aggregationStyle == .cumulative) else {
            throw HKError(.errorInvalidArgument, "a quantity series needs at least one quantity")
        }
        return (.quantity(summary.quantity, unit: type.canonicalUnit.unitString), summary.series)
    }

    /// Internal for tests: no registered type has duration limits yet (see `HKSampleType`).
    static func checkDates(_ record: SampleRecord, of type: HKSampleType) throws(HKError) {
        let window = SampleLimits.earliestPermittedSampleDate...SampleLimits.latestPermittedSampleDate
        guard window.contains(record.startDate), window.contains(record.endDate) else {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): start and end dates must lie between 1900-01-01 and 2200-01-01 (UTC)")
        }
        guard record.startDate <= record.endDate else {
            throw HKError(.errorInvalidArgument, "\(type.identifier): start date is after end date")
        }
        let duration = record.endDate.timeIntervalSince(record.startDate)
        guard duration >= type.minimumAllowedDuration, duration <= type.maximumAllowedDuration else {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): duration must be between \(type.minimumAllowedDuration) and \(type.maximumAllowedDuration) seconds")
        }
    }
}
