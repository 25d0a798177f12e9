public import Foundation

/// One relation of HealthKit's workout effort model (iOS 18): effort samples tied to a workout,
/// or to one activity of it, with `HKHealthStore.relateWorkoutEffortSample`. As read by one
/// reader: `sampleUUIDs` holds only the related samples it can read, in the store's order.
public struct WorkoutEffortRelation: Hashable, Sendable {
    public var workoutUUID: UUID
    /// nil: related to the workout itself rather than to one of its activities.
    public var activityUUID: UUID?
    public var sampleUUIDs: [UUID]

    public init(workoutUUID: UUID, activityUUID: UUID?, sampleUUIDs: [UUID]) {
        self.workoutUUID = workoutUUID
        self.activityUUID = activityUUID
        self.sampleUUIDs = sampleUUIDs
    }
}

/// The rules of the relation that depend on nothing but the request.
public enum WorkoutEffortRules {
    /// The types whose samples may be related to a workout. Apple names these two in
    /// HKQuantityTypeIdentifier (workoutEffortScore, estimatedWorkoutEffortScore) and HealthKit
    /// refuses to store a workoutEffortScore sample with a workout other than through
    /// `relateWorkoutEffortSample` ("Sample of type HKQuantityTypeIdentifierWorkoutEffortScore
    /// must be related to a workout", developer.apple.com/forums/thread/763539).
    public static let effortTypes: [String] = [
        HKQuantityTypeIdentifier.workoutEffortScore.rawValue,
        HKQuantityTypeIdentifier.estimatedWorkoutEffortScore.rawValue,
    ]

    /// The error for relating a sample of any other type; depends on the request alone.
    public static func checkEffortType(_ typeIdentifier: String) throws(HKError) {
        guard effortTypes.contains(typeIdentifier) else {
            throw HKError(.errorInvalidArgument,
                          "only workoutEffortScore and estimatedWorkoutEffortScore samples can be related to a workout, not \(typeIdentifier.prefix(100))")
        }
    }

    /// The most relevant of one relation's samples (`HKWorkoutEffortRelationshipQueryOptions
    /// .mostRelevant`, "The most relevant sample will be returned", HKWorkoutEffortRelationshipQuery.h):
    /// a score the user gave (workoutEffortScore) over Apple's estimate, and of several of the
    /// same type the latest (end date, then start date, then the later relation). Apple does
    /// not document the order further; this is the reading the SDK README states.
    public static func mostRelevant(_ candidates: [Candidate]) -> Candidate? {
        candidates.max { lhs, rhs in
            (lhs.isUserScore ? 1 : 0, lhs.endDate, lhs.startDate, lhs.order) < (rhs.isUserScore ? 1 : 0, rhs.endDate, rhs.startDate, rhs.order)
        }
    }

    /// A related sample as `mostRelevant` weighs it.
    public struct Candidate: Hashable, Sendable {
        public var uuid: UUID
        public var isUserScore: Bool
        public var startDate: Date
        public var endDate: Date
        /// A tiebreak that makes the choice total: the relation's position in the store.
        public var order: Int64

        public init(uuid: UUID, typeIdentifier: String, startDate: Date, endDate: Date, order: Int64) {
            self.uuid = uuid
            isUserScore = typeIdentifier == HKQuantityTypeIdentifier.workoutEffortScore.rawValue
            self.startDate = startDate
            self.endDate = endDate
            self.order = order
        }
    }
}
