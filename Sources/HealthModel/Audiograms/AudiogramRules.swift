/// HealthKit's rules for audiograms, in one place: the SDK's throwing initializers
/// (`HKAudiogramSensitivityPoint`, `HKAudiogramSensitivityTest`,
/// `HKAudiogramSensitivityPointClampingRange`) and the broker's validator both call these, and
/// only the broker's run is authoritative (an app need not use the SDK).
///
/// The rules and limits are HealthKit's (developer.apple.com/documentation/healthkit):
/// - `HKAudiogramSample.init(sensitivityPoints:start:end:device:metadata:)`: "a maximum limit of
///   30 points. Frequencies must be unique, and ordered ascending."
/// - `HKAudiogramSensitivityPoint`: frequency in hertz, sensitivities in dBHL; "Errors may include
///   incorrect quantity units or data that is out of an expected range". HealthKit's ranges are
///   0…30000 Hz and −20…160 dBHL (its error reads "Value … is outside the range …"); the iOS 13
///   initializer needs a left or a right sensitivity, the iOS 18.1 one at least one test, at most
///   two air-conduction tests and one per ear.
/// - `HKAudiogramSensitivityPointClampingRange`: "At least one bound must be specified. If both
///   bounds are provided, the lower bound must be less than the upper bound."
///
/// Messages name the field and the allowed range, never the value: the message goes back to the
/// app and is never logged, but keeping health values out keeps it safe to surface anywhere.
public enum AudiogramRules {
    /// `HKAudiogramSample`'s documented maximum.
    public static let maxPoints = 30
    public static let frequencyRange: ClosedRange<Double> = 0...30_000
    public static let sensitivityRange: ClosedRange<Double> = -20...160
    /// At most two air-conduction tests per point, one per ear.
    public static let maxTestsPerPoint = 2
    /// `HKAudiogramConductionType.air`, the only conduction type HealthKit defines.
    public static let airConduction = 0
    /// `HKAudiogramSensitivityTestSide` raw values.
    public static let sides: ClosedRange<Int> = 0...1

    /// A whole audiogram: the point count, ascending unique frequencies, then each point.
    public static func check(_ value: AudiogramValue) throws(HKError) {
        guard value.points.count <= maxPoints else {
            throw HKError(.errorInvalidArgument,
                          "an audiogram holds at most \(maxPoints) sensitivity points; this one has \(value.points.count)")
        }
        for (index, point) in value.points.enumerated() {
            do {
                try check(point)
            } catch {
                throw HKError(error.code, "sensitivity point \(index + 1): \(error.message)")
            }
            if index > 0, !(value.points[index - 1].frequency < point.frequency) {
                throw HKError(.errorInvalidArgument,
                              "sensitivity point \(index + 1): frequencies must be unique and in ascending order")
            }
        }
    }

    /// One point: its frequency, then its tests (`init(frequency:tests:)`'s refusals).
    public static func check(_ point: AudiogramValue.Point) throws(HKError) {
        try checkFrequency(point.frequency)
        guard !point.tests.isEmpty else {
            throw HKError(.errorInvalidArgument, "a sensitivity point needs at least one test (a left or a right ear sensitivity)")
        }
        guard point.tests.count <= maxTestsPerPoint else {
            throw HKError(.errorInvalidArgument, "a sensitivity point holds at most \(maxTestsPerPoint) tests, one per ear")
        }
        for test in point.tests {
            try check(test)
        }
        if point.tests.count == 2, point.tests[0].side == point.tests[1].side {
            throw HKError(.errorInvalidArgument, "a sensitivity point holds at most one test per ear")
        }
    }

    /// One test: a known conduction type and side, a sensitivity in range, a valid clamping range.
    public static func check(_ test: AudiogramValue.Test) throws(HKError) {
        guard test.conductionType == airConduction else {
            throw HKError(.errorInvalidArgument, "a sensitivity test's conduction type must be air (0)")
        }
        guard sides.contains(test.side) else {
            throw HKError(.errorInvalidArgument, "a sensitivity test's side must be left (0) or right (1)")
        }
        try checkSensitivity(test.sensitivity, "sensitivity")
        if test.isClamped {
            try checkClampingRange(lower: test.clampingLowerBound, upper: test.clampingUpperBound)
        }
    }

    /// `HKAudiogramSensitivityPointClampingRange(lowerBound:upperBound:)`'s refusals; bounds must
    /// also be finite numbers of dBHL, which HealthKit's NSNumber bounds leave implicit.
    public static func checkClampingRange(lower: Double?, upper: Double?) throws(HKError) {
        guard lower != nil || upper != nil else {
            throw HKError(.errorInvalidArgument, "a clamping range needs at least one bound")
        }
        for bound in [lower, upper].compactMap({ $0 }) where !bound.isFinite {
            throw HKError(.errorInvalidArgument, "a clamping range's bounds must be finite numbers of dBHL")
        }
        if let lower, let upper, !(lower < upper) {
            throw HKError(.errorInvalidArgument, "a clamping range's lower bound must be less than its upper bound")
        }
    }

    /// Hz within HealthKit's range; NaN fails `contains` and is refused with the rest.
    public static func checkFrequency(_ hertz: Double) throws(HKError) {
        guard frequencyRange.contains(hertz) else {
            throw HKError(.errorInvalidArgument,
                          "frequency is outside the range \(Int(frequencyRange.lowerBound)) - \(Int(frequencyRange.upperBound)) Hz")
        }
    }

    /// dBHL within HealthKit's range; NaN fails `contains` and is refused with the rest.
    public static func checkSensitivity(_ dBHL: Double, _ name: String) throws(HKError) {
        guard sensitivityRange.contains(dBHL) else {
            throw HKError(.errorInvalidArgument,
                          "\(name) is outside the range \(Int(sensitivityRange.lowerBound)) - \(Int(sensitivityRange.upperBound)) dBHL")
        }
    }
}
