/// An `Audiogram` element: the sample's header and its `SensitivityPoint` children in document
/// order. Export version 11 writes each point's frequency and each ear's sensitivity with their
/// units; masking and clamping (iOS 18.1) have no attributes there. OpenHealthKit's exports add
/// them as `SensitivityTest` children of a point (see `ExportSensitivityTest`); a point without
/// them (every Apple export) becomes unmasked air-conduction tests, as HealthKit's iOS 13
/// initializer makes them.
public struct ExportAudiogram: Sendable, Equatable {
    public var header: ExportSampleHeader
    public var points: [ExportSensitivityPoint]
}

/// A `SensitivityPoint`: `frequencyValue`/`frequencyUnit`, `leftEarValue`/`leftEarUnit`,
/// `rightEarValue`/`rightEarUnit`, values as written, and its `SensitivityTest` children.
public struct ExportSensitivityPoint: Sendable, Equatable {
    public var frequency: ExportMeasure
    public var leftEar: ExportMeasure?
    public var rightEar: ExportMeasure?
    /// When present they are the point's tests, and `leftEar`/`rightEar` (Apple's summary of
    /// them, kept for Apple's readers) are not read.
    public var tests: [ExportSensitivityTest]

    public init(frequency: ExportMeasure, leftEar: ExportMeasure?, rightEar: ExportMeasure?, tests: [ExportSensitivityTest] = []) {
        self.frequency = frequency
        self.leftEar = leftEar
        self.rightEar = rightEar
        self.tests = tests
    }
}

/// A `SensitivityTest`, OpenHealthKit's own child of `SensitivityPoint` (no Apple DTD has one):
/// one `HKAudiogramSensitivityTest` — `side` (`left`/`right`), `sensitivityValue`/`sensitivityUnit`,
/// `conductionType` (`HKAudiogramConductionType` raw value), `masked` (`1`/`0`, as boolean metadata
/// is written) and, when clamped, `clampingLowerBound`/`clampingUpperBound` in dBHL. Values as written.
public struct ExportSensitivityTest: Sendable, Equatable {
    public var side: String
    public var sensitivity: ExportMeasure
    public var conductionType: String?
    public var masked: String?
    public var clampingLowerBound: String?
    public var clampingUpperBound: String?

    public init(side: String, sensitivity: ExportMeasure, conductionType: String?, masked: String?,
                clampingLowerBound: String?, clampingUpperBound: String?) {
        self.side = side
        self.sensitivity = sensitivity
        self.conductionType = conductionType
        self.masked = masked
        self.clampingLowerBound = clampingLowerBound
        self.clampingUpperBound = clampingUpperBound
    }
}
