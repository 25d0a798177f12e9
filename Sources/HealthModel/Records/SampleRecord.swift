public import Foundation

/// A sample as plain, Sendable values: what travels on the wire and what the store keeps.
/// The SDK's `HKSample` classes are built from and turned into these.
public struct SampleRecord: Hashable, Sendable {
    /// Every case whose payload is a struct of several fields is `indirect` (kept in a box of
    /// its own): an enum is as large as its largest case, and `WorkoutValue` alone made every
    /// value about 180 bytes (by its fields) — carried by every quantity and category sample, by each
    /// `HKSample` an app fetches (`recordValue`) and by each record healthd copies while it
    /// saves a batch. Boxed, a value is the size of a quantity (issue 17, "Session 14").
    public enum Value: Hashable, Sendable {
        /// A quantity in `unit` (an HKUnit string). The broker stores the canonical unit.
        case quantity(Double, unit: String)
        case category(Int)
        /// An `HKWorkout`'s activity type, duration, totals and events.
        indirect case workout(WorkoutValue)
        /// An `HKWorkoutRoute`: how many locations it holds. The locations themselves travel
        /// apart (a route may have tens of thousands), see `RouteLocation`.
        case workoutRoute(locationCount: Int)
        /// An HKCorrelation: the samples it groups (see `CorrelationRules`). Each is also a
        /// sample of its own type, saved and stored with the correlation.
        case correlation([SampleRecord])
        /// An `HKHeartbeatSeriesSample` (`HeartbeatSeriesValue`: beats on save, count on fetch).
        indirect case heartbeatSeries(HeartbeatSeriesValue)
        /// An `HKElectrocardiogram` (voltages on import, summary on fetch).
        indirect case electrocardiogram(ElectrocardiogramValue)
        /// An `HKStateOfMind` (iOS 18): kind, valence, labels and associations.
        indirect case stateOfMind(StateOfMindValue)
        /// An `HKGAD7Assessment` or `HKPHQ9Assessment`: its answers (`ScoredAssessmentRules`).
        indirect case scoredAssessment(ScoredAssessmentValue)
        /// An `HKAudiogramSample`: its sensitivity points (`AudiogramRules`).
        indirect case audiogram(AudiogramValue)
        /// An `HKCDADocumentSample`: the document's bytes, stored opaque (`DocumentRules`).
        indirect case document(DocumentValue)
        /// An `HKClinicalRecord`: display name and FHIR resource (`FHIRResourceRules`).
        indirect case clinicalRecord(ClinicalRecordValue)
        /// An `HKVisionPrescription` (iOS 16) and its glasses or contacts lenses (`VisionPrescriptionRules`).
        indirect case visionPrescription(VisionPrescriptionValue)
        /// An `HKMedicationDoseEvent` (iOS 26): one logged dose (`MedicationRules`).
        indirect case medicationDoseEvent(MedicationDoseEventValue)
        /// An `HKUserAnnotatedMedication` (iOS 26), stored as an object so per-object grants name it.
        indirect case userAnnotatedMedication(UserAnnotatedMedicationValue)
    }

    /// Assigned by the broker on save (UUIDv7 of the object's start date, `UUIDv7.make(startingAt:)`);
    /// whatever a client sends is ignored.
    public var uuid: UUID
    public var typeIdentifier: String
    public var startDate: Date
    public var endDate: Date
    public var value: Value
    public var metadata: [String: MetadataValue]
    public var device: DeviceRecord?
    /// Set by the broker; ignored when a client saves.
    public var source: SourceRecord?
    /// A quantity sample built by `HKQuantitySeriesSampleBuilder` (`value` is then `.quantity`,
    /// the series' sum or average); nil for every other sample, including a single-quantity one.
    public var quantitySeries: QuantitySeries?

    public init(uuid: UUID, typeIdentifier: String, startDate: Date, endDate: Date, value: Value,
                metadata: [String: MetadataValue] = [:], device: DeviceRecord? = nil, source: SourceRecord? = nil,
                quantitySeries: QuantitySeries? = nil) {
        self.uuid = uuid
        self.typeIdentifier = typeIdentifier
        self.startDate = startDate
        self.endDate = endDate
        self.value = value
        self.metadata = metadata
        self.device = device
        self.source = source
        self.quantitySeries = quantitySeries
    }
}
