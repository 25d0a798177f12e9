import Foundation
import HealthModel

/// How the audiogram's value classes (`HKAudiogramSensitivityPoint`, `…Test`,
/// `…PointClampingRange`) archive, in one place: the wire's own numbers (Hz, dBHL, raw values)
/// as flat fields under a key prefix, so a point holds its tests as `tests.0.…`, `tests.1.…`
/// beside its own fields instead of nested archived objects (swift-corelibs-foundation traps on
/// a nested object of an unexpected class; see `NSCoder+ArchiveFields`).
///
/// Decoding reads the fields, then applies `AudiogramRules` — the check the public initializers
/// and healthd apply — so an archive decodes only into a value those initializers could have
/// made; anything else is nil.
enum AudiogramArchiveFields {
    static func encodeClamping(lower: Double?, upper: Double?, prefix: String, with coder: NSCoder) {
        if let lower { coder.encode(NSNumber(value: lower), forKey: prefix + "clampingLowerBound") }
        if let upper { coder.encode(NSNumber(value: upper), forKey: prefix + "clampingUpperBound") }
    }

    /// `.some((nil, nil))` when neither bound is there; nil when a bound is mistyped.
    static func decodeClamping(prefix: String, from coder: NSCoder) -> (lower: Double?, upper: Double?)? {
        var bounds: [Double?] = []
        for key in [prefix + "clampingLowerBound", prefix + "clampingUpperBound"] {
            if coder.containsValue(forKey: key) {
                guard let bound = coder.decodeRequiredNumber(forKey: key) else { return nil }
                bounds.append(bound.doubleValue)
            } else {
                bounds.append(nil)
            }
        }
        return (bounds[0], bounds[1])
    }

    static func encodeTest(_ test: AudiogramValue.Test, prefix: String, with coder: NSCoder) {
        coder.encode(NSNumber(value: test.sensitivity), forKey: prefix + "sensitivity")
        coder.encode(NSNumber(value: test.conductionType), forKey: prefix + "type")
        coder.encode(NSNumber(value: test.masked), forKey: prefix + "masked")
        coder.encode(NSNumber(value: test.side), forKey: prefix + "side")
        encodeClamping(lower: test.clampingLowerBound, upper: test.clampingUpperBound, prefix: prefix, with: coder)
    }

    /// The test's fields, checked by `AudiogramRules.check(_:)` (type, side, sensitivity range,
    /// clamping range); nil when any is missing, mistyped or refused.
    static func decodeTest(prefix: String, from coder: NSCoder) -> AudiogramValue.Test? {
        guard let sensitivity = coder.decodeRequiredNumber(forKey: prefix + "sensitivity")?.doubleValue,
              let type = coder.decodeRequiredInt(forKey: prefix + "type"),
              let masked = coder.decodeRequiredNumber(forKey: prefix + "masked")?.boolValue,
              let side = coder.decodeRequiredInt(forKey: prefix + "side"),
              let clamping = decodeClamping(prefix: prefix, from: coder) else { return nil }
        let test = AudiogramValue.Test(sensitivity: sensitivity, conductionType: type, masked: masked, side: side,
                                       clampingLowerBound: clamping.lower, clampingUpperBound: clamping.upper)
        guard (try? AudiogramRules.check(test)) != nil else { return nil }
        return test
    }

    private static let testCountKey = "testCount"

    static func encodePoint(_ point: AudiogramValue.Point, with coder: NSCoder) {
        coder.encode(NSNumber(value: point.frequency), forKey: "frequency")
        coder.encode(NSNumber(value: point.tests.count), forKey: testCountKey)
        for (index, test) in point.tests.enumerated() { encodeTest(test, prefix: "tests.\(index).", with: coder) }
    }

    /// The point, checked by `AudiogramRules.check(_:)` (frequency range, one or two tests, one
    /// per ear). The count is checked against the rule's maximum before any test is read.
    static func decodePoint(from coder: NSCoder) -> AudiogramValue.Point? {
        guard let frequency = coder.decodeRequiredNumber(forKey: "frequency")?.doubleValue,
              let count = coder.decodeRequiredInt(forKey: testCountKey),
              (1...AudiogramRules.maxTestsPerPoint).contains(count) else { return nil }
        var tests: [AudiogramValue.Test] = []
        for index in 0..<count {
            guard let test = decodeTest(prefix: "tests.\(index).", from: coder) else { return nil }
            tests.append(test)
        }
        let point = AudiogramValue.Point(frequency: frequency, tests: tests)
        guard (try? AudiogramRules.check(point)) != nil else { return nil }
        return point
    }
}
