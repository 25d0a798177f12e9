/// An `HKElectrocardiogram`'s value: Apple Watch's single-lead recording, its classification and
/// summary. Like a heartbeat series, the voltages travel with the sample only when it is written
/// (import; apps cannot save ECGs) and are read apart with `HKElectrocardiogramQuery`.
public struct ElectrocardiogramValue: Hashable, Sendable {
    /// `HKElectrocardiogram.Classification` raw value (0 notSet … 6, 100 unrecognized).
    public var classification: Int
    /// `HKElectrocardiogram.SymptomsStatus` raw value (0 notSet, 1 none, 2 present).
    public var symptomsStatus: Int
    /// Beats per minute; nil when the recording has none (HealthKit's optional quantity).
    public var averageHeartRate: Double?
    /// Hertz; nil when unknown.
    public var samplingFrequency: Double?
    public var voltageCount: Int
    /// Lead I-like voltages in volts (the canonical unit), one per sample at `samplingFrequency`.
    /// Nil in fetched samples.
    public var voltages: [Double]?

    public init(classification: Int, symptomsStatus: Int, averageHeartRate: Double?, samplingFrequency: Double?,
                voltageCount: Int, voltages: [Double]? = nil) {
        self.classification = classification
        self.symptomsStatus = symptomsStatus
        self.averageHeartRate = averageHeartRate
        self.samplingFrequency = samplingFrequency
        self.voltageCount = voltageCount
        self.voltages = voltages
    }

    /// The raw values HealthKit defines (spec/healthkit/enums.tsv).
    public static let classifications: Set<Int> = [0, 1, 2, 3, 4, 5, 6, 100]
    public static let symptomsStatuses: Set<Int> = [0, 1, 2]
}
