public import Foundation
import HealthModel
import HealthWire

/// `HKWorkoutEffortRelationship`'s archive (`NSSecureCoding`, as Apple's class:
/// developer.apple.com/documentation/healthkit/hkworkouteffortrelationship lists `init(coder:)`).
///
/// **Format.** The workout and each sample are archived as themselves (`HKObject`'s own archive,
/// `ArchivedSample`), each in an archive of its own stored as data — never as a nested archived
/// object, which swift-corelibs-foundation traps on instead of failing when its class is not the
/// expected one (`ArchivedSample`). The activity is the UUID of one of the workout's activities.
/// `sampleCount` absent: `samples` is nil.
///
/// **Decoding** fails (nil) on anything malformed: a missing or non-data field, an archive that
/// is no workout or no sample, more samples than a query ever answers with
/// (`WireLimits.maxObjectsPerCall`), an activity that is not one of the workout's.
extension HKWorkoutEffortRelationship {
    public static var supportsSecureCoding: Bool { true }

    private enum Key {
        static let workout = "workout"
        static let activity = "activityUUID"
        static let sampleCount = "sampleCount"
        static func sample(_ index: Int) -> String { "samples.\(index)" }
    }

    public func encode(with coder: NSCoder) {
        coder.encode(Self.archive(workout) as NSData, forKey: Key.workout)
        if let activity { coder.encode(activity.uuid.uuidString as NSString, forKey: Key.activity) }
        if let samples {
            coder.encode(NSNumber(value: samples.count), forKey: Key.sampleCount)
            for (index, sample) in samples.enumerated() {
                coder.encode(Self.archive(sample) as NSData, forKey: Key.sample(index))
            }
        }
    }

    public convenience init?(coder: NSCoder) {
        guard let workoutData = coder.decodeRequiredData(forKey: Key.workout),
              let workout = Self.sample(from: workoutData) as? HKWorkout else { return nil }
        var activity: HKWorkoutActivity?
        switch coder.decodeOptionalString(forKey: Key.activity) {
        case .none: return nil  // present but not a string
        case .some(.none): activity = nil
        case let .some(.some(text)):
            guard let uuid = UUID(uuidString: text),
                  let found = workout.workoutActivities.first(where: { $0.uuid == uuid }) else { return nil }
            activity = found
        }
        var samples: [HKSample]?
        if coder.containsValue(forKey: Key.sampleCount) {
            guard let count = coder.decodeRequiredInt(forKey: Key.sampleCount),
                  (0...WireLimits.maxObjectsPerCall).contains(count) else { return nil }
            var decoded: [HKSample] = []
            for index in 0..<count {
                guard let data = coder.decodeRequiredData(forKey: Key.sample(index)), let sample = Self.sample(from: data) else {
                    return nil
                }
                decoded.append(sample)
            }
            samples = decoded
        }
        self.init(workout: workout, activity: activity, samples: samples)
    }

    /// `sample`'s own archive (`HKObject.encode(with:)`), as data.
    private static func archive(_ sample: HKSample) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        sample.encode(with: archiver)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// The sample an `archive(_:)` holds, of the class its record is (a workout, a quantity
    /// sample…), or nil when the data is no such archive.
    private static func sample(from data: Data) -> HKSample? {
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = true
        defer { unarchiver.finishDecoding() }
        guard let archived = ArchivedSample(unarchiver) else { return nil }
        return try? HKSample.fetched(archived.record, sharing: archived.parts)
    }
}
