public import Foundation

/// HealthKit's query predicates as a serializable tree (the SDK builds it from the
/// `HKQuery.predicateFor…` functions and `NSCompoundPredicate`; the broker evaluates it in SQL).
public indirect enum SamplePredicate: Hashable, Sendable {
    /// `predicateForSamples(withStart:end:options:)`. Without strict options a sample matches
    /// when it ends at or after `start` and starts before `end` (HealthKit's overlap rule).
    case dateRange(start: Date?, end: Date?, strictStart: Bool, strictEnd: Bool)
    case uuids(Set<UUID>)
    /// Samples saved by these apps (bundle identifiers).
    case sources(Set<String>)
    case and([SamplePredicate])
    case or([SamplePredicate])
    case not(SamplePredicate)
    /// `predicateForObjects(from: workout)`: the samples associated with the workout with this
    /// UUID (added with `add(_:to:)`, and its route).
    case workout(UUID)
    /// `predicateForWorkouts(with:)`: workouts of this `HKWorkoutActivityType` raw value.
    case workoutActivityType(UInt)

    /// Whether `record` matches. The reference semantics: the broker's SQL must agree with it.
    public func matches(_ record: SampleRecord) -> Bool {
        switch self {
        case let .dateRange(start, end, strictStart, strictEnd):
            if let start {
                if strictStart ? record.startDate < start : record.endDate < start { return false }
            }
            if let end {
                if strictEnd ? record.endDate > end : record.startDate >= end { return false }
            }
            return true
        case let .uuids(uuids):
            return uuids.contains(record.uuid)
        case let .sources(bundles):
            return record.source.map { bundles.contains($0.bundleIdentifier) } ?? false
        case let .and(operands):
            return operands.allSatisfy { $0.matches(record) }
        case let .or(operands):
            return operands.contains { $0.matches(record) }
        case let .not(operand):
            return !operand.matches(record)
        case .workout:
            // Associations live in the store, not in the record: only the broker can decide.
            return false
        case let .workoutActivityType(activityType):
            guard case let .workout(workout) = record.value else { return false }
            return workout.activityType == activityType
        }
    }
}

/// `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending:)` as a value.
public struct SampleSort: Hashable, Sendable {
    public enum Key: Hashable, Sendable { case startDate, endDate }
    public var key: Key
    public var ascending: Bool

    public init(_ key: Key, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }
}

/// An HKSampleQuery as a value: type, predicate, sort and limit (0 = HKObjectQueryNoLimit).
public struct SampleQuerySpec: Hashable, Sendable {
    public var typeIdentifier: String
    public var predicate: SamplePredicate?
    public var sort: [SampleSort]
    public var limit: Int

    public init(typeIdentifier: String, predicate: SamplePredicate? = nil, sort: [SampleSort] = [], limit: Int = 0) {
        self.typeIdentifier = typeIdentifier
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}
