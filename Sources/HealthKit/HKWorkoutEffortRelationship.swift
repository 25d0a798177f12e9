public import Foundation

/// A workout, or one activity of it, with the effort samples related to it, as HealthKit's
/// `HKWorkoutEffortRelationship` (iOS 18), answered by `HKWorkoutEffortRelationshipQuery`.
/// Holds only what the querying app can read: the workout is visible to it, and `samples` lists
/// the related samples of the types it may read (a relation whose samples it cannot read is not
/// returned at all; an update may hand out one left with no sample, after a change emptied it).
/// Immutable, so a copy is the object itself. `NSSecureCoding`, as Apple's
/// (`HKWorkoutEffortRelationship+Coding.swift`).
public final class HKWorkoutEffortRelationship: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: every stored property is immutable, and HKWorkout/HKSample are immutable too.
    public let workout: HKWorkout
    /// nil: the samples are related to the workout itself.
    public let activity: HKWorkoutActivity?
    /// "The samples related to the workout but not any sub-activities" (HKWorkoutEffortRelationshipQuery.h)
    /// for a relationship without `activity`; those related to `activity` otherwise.
    public let samples: [HKSample]?

    init(workout: HKWorkout, activity: HKWorkoutActivity?, samples: [HKSample]?) {
        self.workout = workout
        self.activity = activity
        self.samples = samples
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override var description: String {
        "<HKWorkoutEffortRelationship workout \(workout.uuid) activity \(activity.map { "\($0.uuid)" } ?? "none") samples \(samples?.count ?? 0)>"
    }
}
