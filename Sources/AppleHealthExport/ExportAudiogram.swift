/// An `Audiogram` element: the sample's header and its `SensitivityPoint` children in document
/// order. Export version 11 writes each point's frequency and each ear's sensitivity with their
/// units; masking and clamping (iOS 18.1) have no attributes there, so an imported point's tests
/// are unmasked air-conduction tests, as HealthKit's iOS 13 initializer makes them.
public struct ExportAudiogram: Sendable, Equatable {
    public var header: ExportSampleHeader
    public var points: [ExportSensitivityPoint]
}

/// A `SensitivityPoint`: `frequencyValue`/`frequencyUnit`, `leftEarValue`/`leftEarUnit`,
/// `rightEarValue`/`rightEarUnit`, values as written.
public struct ExportSensitivityPoint: Sendable, Equatable {
    public var frequency: ExportMeasure
    public var leftEar: ExportMeasure?
    public var rightEar: ExportMeasure?

    public init(frequency: ExportMeasure, leftEar: ExportMeasure?, rightEar: ExportMeasure?) {
        self.frequency = frequency
        self.leftEar = leftEar
        self.rightEar = rightEar
    }
}
