/// An audiogram's value (`HKAudiogramSample`): its sensitivity points in HealthKit's canonical
/// units, frequencies in hertz and sensitivities in dBHL. The units are fixed by the field names,
/// so a value cannot carry a unit of the wrong dimension past the SDK or the wire.
public struct AudiogramValue: Hashable, Sendable {
    /// One ear's result at a frequency, as `HKAudiogramSensitivityTest` (iOS 18.1).
    public struct Test: Hashable, Sendable {
        /// dBHL; more is worse hearing.
        public var sensitivity: Double
        /// `HKAudiogramConductionType` raw value (0 air, the only one HealthKit defines).
        public var conductionType: Int
        public var masked: Bool
        /// `HKAudiogramSensitivityTestSide` raw value: 0 left, 1 right.
        public var side: Int
        /// `HKAudiogramSensitivityPointClampingRange`'s bounds in dBHL; both nil when not clamped.
        public var clampingLowerBound: Double?
        public var clampingUpperBound: Double?

        public init(sensitivity: Double, conductionType: Int = 0, masked: Bool = false, side: Int,
                    clampingLowerBound: Double? = nil, clampingUpperBound: Double? = nil) {
            self.sensitivity = sensitivity
            self.conductionType = conductionType
            self.masked = masked
            self.side = side
            self.clampingLowerBound = clampingLowerBound
            self.clampingUpperBound = clampingUpperBound
        }

        /// Whether the test carries a clamping range.
        public var isClamped: Bool { clampingLowerBound != nil || clampingUpperBound != nil }
    }

    /// The tests at one frequency, as `HKAudiogramSensitivityPoint`.
    public struct Point: Hashable, Sendable {
        /// Hz.
        public var frequency: Double
        public var tests: [Test]

        public init(frequency: Double, tests: [Test]) {
            self.frequency = frequency
            self.tests = tests
        }

        /// The sensitivity Apple's iOS 13 `leftEarSensitivity`/`rightEarSensitivity` report for
        /// `side`: the unmasked air test's, else a masked one's; nil when that ear was not tested.
        public func sensitivity(side: Int) -> Double? {
            let ear = tests.filter { $0.side == side && $0.conductionType == AudiogramRules.airConduction }
            return (ear.first { !$0.masked } ?? ear.last)?.sensitivity
        }
    }

    public var points: [Point]

    public init(points: [Point]) {
        self.points = points
    }
}
