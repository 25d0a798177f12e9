/// The store contradicts its own schema's invariants: a bug or a damaged file, never a user error.
enum StoreIntegrityError: Error, CustomStringConvertible {
    /// A workout object without its `workouts` row (they are written in one transaction).
    case missingWorkoutRow
    /// An object naming a source that `sources` does not hold (a foreign key).
    case missingSourceRow
    /// An object naming a device that `devices` does not hold (a foreign key).
    case missingDeviceRow
    /// A heartbeat series, ECG or quantity series object without its intact side row (written in one transaction).
    case missingSeriesRow
    /// The `counters` row of the change number (made by the first migration) is gone.
    case missingChangeCounter
    /// An object's `uuid` is not the 16 bytes every insert writes.
    case malformedUUID
    /// A state of mind object without its `states_of_mind` row (written in one transaction).
    case missingStateOfMindRow
    /// A GAD-7 or PHQ-9 object without its `scored_assessments` row (written in one transaction).
    case missingAssessmentRow
    /// An audiogram object without its `audiograms` row, or with fewer points than it says.
    case missingAudiogramRows
    /// A document object without its `documents` row (written in one transaction).
    case missingDocumentRow
    /// A clinical record object without its `clinical_records` row (written in one transaction).
    case missingClinicalRecordRow
    /// A vision prescription object without its `vision_prescriptions` row (written in one transaction).
    case missingVisionPrescriptionRow
    case missingMedicationRow
    /// An object naming a `source_systems` row (v31) the store does not hold, or one whose
    /// system version is not "major.minor.patch".
    case malformedSourceSystemRow
    /// A row this transaction wrote or looked up a moment ago is not there.
    case missingRowJustWritten(String)
    /// An attachment's chunks do not cover its bytes exactly, in order (written in one transaction).
    case attachmentChunks

    var description: String {
        switch self {
        case .missingWorkoutRow: "a workout object has no workouts row"
        case .missingSourceRow: "an object names a source the store does not hold"
        case .missingDeviceRow: "an object names a device the store does not hold"
        case .missingSeriesRow: "a heartbeat series, electrocardiogram or quantity series object has no intact series row"
        case .missingChangeCounter: "the store's change counter row is missing"
        case .malformedUUID: "an object's stored UUID is not 16 bytes"
        case .missingStateOfMindRow: "a state of mind object has no state of mind row"
        case .missingAssessmentRow: "a scored assessment object has no scored_assessments row"
        case .missingAudiogramRows: "an audiogram object's audiograms or audiogram_tests rows are missing"
        case .missingDocumentRow: "a document object has no documents row"
        case .missingClinicalRecordRow: "a clinical record object has no clinical_records row"
        case .missingVisionPrescriptionRow: "a vision prescription object has no vision_prescriptions row"
        case .missingMedicationRow: "a medication or dose event object has no medications or medication_dose_events row"
        case .malformedSourceSystemRow: "an object names a source_systems row that is missing or malformed"
        case let .missingRowJustWritten(what): "\(what), written in this transaction, is not in the store"
        case .attachmentChunks: "an attachment's stored chunks do not add up to its size"
        }
    }
}
