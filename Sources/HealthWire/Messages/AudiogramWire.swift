import COpenHealthProto
import HealthModel

/// audiogram.proto `Audiogram`: an `HKAudiogramSample`'s points inside `Sample`.
enum AudiogramWire {
    /// Counts beyond these cannot be valid (HealthKit's limits are 30 points and 2 tests a point,
    /// `AudiogramRules`); refusing them here keeps the copy out of the reader, and the validator
    /// names the exact limit for counts between.
    static let maxPoints = 64
    static let maxTestsPerPoint = 8

    static func build(_ value: AudiogramValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Audiogram> {
        let points = value.points.map { point in
            arena.message { (wire: inout Openhealth__V1__AudiogramPoint) in
                wire.frequency_hz = point.frequency
                wire.n_tests = point.tests.count
                wire.tests = arena.messages(point.tests.map { build($0, in: arena) })
            }
        }
        return arena.message { (wire: inout Openhealth__V1__Audiogram) in
            wire.n_points = points.count
            wire.points = arena.messages(points)
        }
    }

    private static func build(_ test: AudiogramValue.Test, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__AudiogramTest> {
        arena.message { (wire: inout Openhealth__V1__AudiogramTest) in
            wire.sensitivity_dbhl = test.sensitivity
            // Raw values the rules allow fit 32 bits; anything else is sent as an invalid -1.
            wire.conduction_type = Int32(exactly: test.conductionType) ?? -1
            wire.masked = test.masked ? 1 : 0
            wire.side = Int32(exactly: test.side) ?? -1
            wire.clamping_lower = test.clampingLowerBound.map { bound in
                arena.message { (wire: inout Openhealth__V1__AudiogramBound) in wire.dbhl = bound }
            }
            wire.clamping_upper = test.clampingUpperBound.map { bound in
                arena.message { (wire: inout Openhealth__V1__AudiogramBound) in wire.dbhl = bound }
            }
        }
    }

    static func read(_ wire: Openhealth__V1__Audiogram) throws(WireDecodeError) -> AudiogramValue {
        guard wire.n_points <= maxPoints else {
            throw .invalidField("an audiogram holds \(wire.n_points) sensitivity points; HealthKit allows at most \(AudiogramRules.maxPoints)")
        }
        var points: [AudiogramValue.Point] = []
        points.reserveCapacity(wire.n_points)
        for point in WireRead.messages(wire.points, count: wire.n_points) {
            guard point.n_tests <= maxTestsPerPoint else {
                throw .invalidField("a sensitivity point holds \(point.n_tests) tests; HealthKit allows at most \(AudiogramRules.maxTestsPerPoint)")
            }
            let tests = WireRead.messages(point.tests, count: point.n_tests).map { test in
                AudiogramValue.Test(sensitivity: test.sensitivity_dbhl, conductionType: Int(test.conduction_type),
                                    masked: test.masked != 0, side: Int(test.side),
                                    clampingLowerBound: test.clamping_lower?.pointee.dbhl,
                                    clampingUpperBound: test.clamping_upper?.pointee.dbhl)
            }
            points.append(AudiogramValue.Point(frequency: point.frequency_hz, tests: tests))
        }
        return AudiogramValue(points: points)
    }
}
