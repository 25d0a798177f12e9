public import Foundation

/// An electrocardiogram, as HealthKit's `HKElectrocardiogram`: Apple Watch's single-lead
/// recording with its classification. Its voltages are read with `HKElectrocardiogramQuery`
/// (or `HKElectrocardiogramQueryDescriptor`). Apps cannot save ECGs (HealthKit's rule,
/// `AppWritability`); they arrive by `healthctl import` of an Apple Health export.
public final class HKElectrocardiogram: HKSample, @unchecked Sendable {
    /// `HKElectrocardiogramClassification`, in Apple's nested Swift spelling.
    public enum Classification: Int, Sendable, CaseIterable {
        case notSet = 0
        case sinusRhythm = 1
        case atrialFibrillation = 2
        case inconclusiveLowHeartRate = 3
        case inconclusiveHighHeartRate = 4
        case inconclusivePoorReading = 5
        case inconclusiveOther = 6
        case unrecognized = 100
    }

    /// `HKElectrocardiogramSymptomsStatus`.
    public enum SymptomsStatus: Int, Sendable, CaseIterable {
        case notSet = 0
        case none = 1
        case present = 2
    }

    /// `HKElectrocardiogramLead`: Apple Watch records one lead, similar to lead I.
    public enum Lead: Int, Sendable, CaseIterable {
        case appleWatchSimilarToLeadI = 1
    }

    /// The voltage of every lead at one moment, as HealthKit's `HKElectrocardiogram.VoltageMeasurement`:
    /// an `NSObject` with `NSCopying`, as Apple's (not archivable there either). Equal when the
    /// time and voltage are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
    public final class VoltageMeasurement: NSObject, NSCopying, @unchecked Sendable {
        /// Seconds from the sample's start.
        public let timeSinceSampleStart: TimeInterval
        private let volts: Double

        init(timeSinceSampleStart: TimeInterval, volts: Double) {
            self.timeSinceSampleStart = timeSinceSampleStart
            self.volts = volts
            super.init()
        }

        /// The voltage on `lead`, in volts; nil for a lead the recording does not hold.
        public func quantity(for lead: HKElectrocardiogram.Lead) -> HKQuantity? {
            lead == .appleWatchSimilarToLeadI ? HKQuantity(unit: .volt(), doubleValue: volts) : nil
        }

        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? VoltageMeasurement else { return false }
            return other.timeSinceSampleStart == timeSinceSampleStart && other.volts == volts
        }

        public override var hash: Int {
            var hasher = Hasher()
            hasher.combine(timeSinceSampleStart)
            hasher.combine(volts)
            return hasher.finalize()
        }

        /// Immutable, so a copy is the measurement itself.
        public func copy(with zone: NSZone? = nil) -> Any { self }

        public override var description: String { "VoltageMeasurement(t: \(timeSinceSampleStart) s)" }
    }

    public let numberOfVoltageMeasurements: Int
    /// Hertz; nil when the recording states none.
    public let samplingFrequency: HKQuantity?
    /// Beats per minute (`count/min`); nil when the recording states none.
    public let averageHeartRate: HKQuantity?
    public let classification: Classification
    public let symptomsStatus: SymptomsStatus

    /// Reads an archive (`ArchivedSample`); the voltages stay in the store, as for a fetched ECG.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKElectrocardiogramType,
              case let .electrocardiogram(ecg) = archived.record.value else { return nil }
        self.init(type: type, fetched: archived.record, ecg, parts: archived.parts)
    }

    init(type: HKElectrocardiogramType, fetched record: SampleRecord, _ ecg: ElectrocardiogramValue, parts: FetchedObjectParts) {
        numberOfVoltageMeasurements = ecg.voltageCount
        samplingFrequency = ecg.samplingFrequency.map { HKQuantity(unit: .hertz(), doubleValue: $0) }
        averageHeartRate = ecg.averageHeartRate.map { HKQuantity(unit: HKUnit.count().unitDivided(by: .minute()), doubleValue: $0) }
        // A raw value this SDK does not know yet (a newer healthd) reads as Apple's catch-all.
        classification = Classification(rawValue: ecg.classification) ?? .unrecognized
        symptomsStatus = SymptomsStatus(rawValue: ecg.symptomsStatus) ?? .notSet
        super.init(type: type, fetched: record, parts: parts)
    }
}

/// Apple's Objective-C names for the nested types, which Swift code also uses.
public typealias HKElectrocardiogramClassification = HKElectrocardiogram.Classification
public typealias HKElectrocardiogramSymptomsStatus = HKElectrocardiogram.SymptomsStatus
public typealias HKElectrocardiogramLead = HKElectrocardiogram.Lead
public typealias HKElectrocardiogramVoltageMeasurement = HKElectrocardiogram.VoltageMeasurement
