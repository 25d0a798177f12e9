import Foundation
import HealthModel
import HealthWire

/// One generated cell of the leak matrix: a query kind asked of one type with one predicate.
/// `MatrixCell.all` is the product of every query kind, every predicate kind and both queried
/// types; nothing is hand-picked.
struct MatrixCell: Sendable {
    let kind: MatrixQueryKind
    let type: String
    let predicate: MatrixPredicate

    var name: String { "\(kind.rawValue) of \(type.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")), \(predicate.rawValue)" }

    static let all: [MatrixCell] = MatrixQueryKind.allCases.flatMap { kind in
        kind.types.flatMap { type in
            MatrixPredicate.allCases.filter { (!kind.isLongRunning || $0.namesAWorkout) && $0.applies(to: type) }
                .map { MatrixCell(kind: kind, type: type, predicate: $0) }
        }
    }

    /// Whether this cell's answer may differ between the worlds for `state`'s app: only where
    /// that app may read what exists in the hidden world alone and the cell reaches it — the
    /// hidden workout's associations with samples of the cell's type (a predicate naming the
    /// workout), the other app's effort score related to the hidden workout (an effort predicate
    /// naming it, or the relationship query of the workouts other than the app's own), or its
    /// effort score related to the app's own workout.
    func mayDiffer(in state: MatrixState) -> Bool {
        switch kind {
        case .effortRelationships, .effortRelationshipsMostRelevant: return state.seesEffortOnTheHiddenWorkout
        case .ownEffortRelationships: return state.seesOtherEffortScores
        default: break
        }
        if predicate.namesTheHiddenWorkout && state.associationVisible.contains(type) { return true }
        guard type == ProbeData.effort else { return false }
        if predicate.relatesToTheHiddenWorkout && state.seesEffortOnTheHiddenWorkout { return true }
        return predicate == .effortOwnWorkout && state.seesOtherEffortScores
    }

    /// Whether the cell must show the hidden data where `mayDiffer` allows it: a predicate that
    /// matches through the hidden workout or relation, on a query kind whose answer lists or
    /// measures what matched (an observer's update says only that something may have changed);
    /// a relationship query whose workout predicate selects a workout holding a hidden relation.
    var isPositiveControl: Bool {
        switch kind {
        case .observer: return false
        case .effortRelationships, .effortRelationshipsMostRelevant: return predicate.selectsTheHiddenWorkout
        case .ownEffortRelationships: return predicate.selectsItsOwnWorkout
        default:
            return type == ProbeData.effort ? [.effortHiddenWorkout, .effortOwnWorkout].contains(predicate) : predicate.matchesThroughHiddenWorkout
        }
    }

    /// The request for this cell.
    func payload(_ inputs: MatrixInputs) -> [UInt8] {
        let predicate = self.predicate.predicate(type: type, inputs)
        let options: HKStatisticsOptions = type == ProbeData.steps ? [.cumulativeSum, .separateBySource] : [.discreteAverage, .discreteMax, .mostRecent]
        let statistics = StatisticsQuerySpec(typeIdentifier: type, predicate: predicate, options: options)
        let collection = StatisticsCollectionSpec(statistics: statistics, anchor: ProbeCatalog.dayAnchor,
                                                  interval: StatisticsInterval(hours: 1), timeZoneIdentifier: "UTC")
        switch kind {
        case .samples: return SampleQuerySpec(typeIdentifier: type, predicate: predicate).wireBytes()
        case .samplesLimited:
            return SampleQuerySpec(typeIdentifier: type, predicate: predicate, sort: [SampleSort(.endDate, ascending: false)], limit: 2).wireBytes()
        case .anchored: return AnchoredQuerySpec(typeIdentifier: type, predicate: predicate).wireBytes()
        case .anchoredLimited: return AnchoredQuerySpec(typeIdentifier: type, predicate: predicate, limit: 1).wireBytes()
        case .statistics: return statistics.wireBytes()
        case .collection, .collectionWatch: return collection.wireBytes()
        case .sources, .observer: return TypePredicateSpec(typeIdentifier: type, predicate: predicate).wireBytes()
        case .anchoredLongRunning: return AnchoredQuerySpec(typeIdentifier: type, predicate: predicate, longRunning: true).wireBytes()
        case .anchoredSet, .anchoredSetLongRunning:
            // The cell's type with its predicate, beside the other queried type unfiltered (whose
            // data is the same in both worlds): the predicate is decided under its own type's
            // scope whatever the other type's grant.
            let other = MatrixState.queried.first { $0 != type } ?? type
            return AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: type, predicate: predicate),
                                                   TypePredicateSpec(typeIdentifier: other)],
                                     longRunning: kind == .anchoredSetLongRunning).wireBytes()
        case .correlations:
            return CorrelationQuerySpec(typeIdentifier: ProbeData.bloodPressure, objectPredicates: predicate.map { [type: $0] } ?? [:]).wireBytes()
        case .effortRelationships, .effortRelationshipsMostRelevant, .ownEffortRelationships:
            // The cell's predicate selects workouts (as `HKWorkoutEffortRelationshipQuery`'s
            // does), confined to the workouts other than the app's own or to its own alone, so
            // each kind reaches one of the two hidden relations.
            let own = SamplePredicate.uuids([inputs.ownWorkout])
            let workouts: SamplePredicate = kind == .ownEffortRelationships ? own : .not(own)
            return WorkoutEffortQuery(predicate: predicate.map { .and([$0, workouts]) } ?? workouts,
                                      mostRelevant: kind == .effortRelationshipsMostRelevant).wireBytes()
        }
    }
}

enum MatrixQueryKind: String, CaseIterable, Sendable {
    case samples = "sample query"
    /// Newest (by end) first, two at most: a hidden row must take no place.
    case samplesLimited = "sample query, end descending, limit 2"
    case anchored = "anchored query"
    /// The first batch of one: its one row and its anchor.
    case anchoredLimited = "anchored query, limit 1"
    case statistics = "statistics"
    case collection = "statistics collection"
    case sources = "source query"
    case anchoredLongRunning = "long-running anchored query"
    case observer = "observer query"
    case collectionWatch = "long-running statistics collection"
    /// One anchored query over the cell's type (with the predicate) and the other queried type.
    case anchoredSet = "anchored query over both queried types"
    case anchoredSetLongRunning = "long-running anchored query over both queried types"
    /// Blood-pressure correlations whose systolic sample matches the predicate.
    case correlations = "correlation query with a member predicate"
    /// `HKWorkoutEffortRelationshipQuery` of the workouts matching the predicate, other than the
    /// app's own (the hidden workout's relation), plain and `.mostRelevant`.
    case effortRelationships = "effort relationships of other workouts"
    case effortRelationshipsMostRelevant = "most relevant effort relationships of other workouts"
    /// The same of the app's own workout (the other app's score related to it in the hidden world).
    case ownEffortRelationships = "effort relationships of its own workout"

    /// The types a kind is asked of: correlations by their systolic member, relationships of the
    /// effort type (their predicate selects workouts), the rest of every queried type.
    var types: [String] {
        switch self {
        case .correlations: [ProbeData.systolic]
        case .effortRelationships, .effortRelationshipsMostRelevant, .ownEffortRelationships: [ProbeData.effort]
        default: MatrixState.queried
        }
    }

    var method: HealthStoreMethod {
        switch self {
        case .samples, .samplesLimited: .querySamples
        case .anchored, .anchoredLimited, .anchoredLongRunning, .anchoredSet, .anchoredSetLongRunning: .queryAnchored
        case .statistics: .queryStatistics
        case .collection: .queryStatisticsCollection
        case .sources: .querySources
        case .observer: .observeChanges
        case .collectionWatch: .watchStatisticsCollection
        case .correlations: .queryCorrelations
        case .effortRelationships, .effortRelationshipsMostRelevant, .ownEffortRelationships: .queryWorkoutEffortRelationships
        }
    }

    /// The relationship query answers as a stream since it became long-running on request
    /// (session 12); asked without updates it is a finite stream like the sample query.
    var isUnary: Bool { [.statistics, .sources].contains(self) }
    var isLongRunning: Bool { [.anchoredLongRunning, .anchoredSetLongRunning, .observer, .collectionWatch].contains(self) }
}

/// Every predicate kind, and compositions of the one that names another object.
enum MatrixPredicate: String, CaseIterable, Sendable {
    case none = "no predicate"
    case allTime = "date range over everything"
    case oldOnly = "date range of the old samples"
    case uuids = "the other app's and its own UUIDs"
    case hiddenWorkout = "in the other app's workout"
    case ownWorkout = "in its own workout"
    case freshWorkout = "in a workout that does not exist"
    case otherSource = "source: the other app"
    case ownSource = "source: itself"
    case device = "device name"
    case metadata = "metadata key exists"
    case value = "value above a threshold"
    case workoutType = "workout activity type running"
    case hiddenWorkoutAndTime = "in the other app's workout and over everything"
    case hiddenWorkoutOrOwnSource = "in the other app's workout or itself"
    case notHiddenWorkout = "not in the other app's workout"
    /// `predicateForWorkoutEffortSamplesRelated(workout:activity:)` (predicate node 33).
    case effortHiddenWorkout = "related to the other app's workout"
    case effortOwnWorkout = "related to its own workout"
    case effortFreshWorkout = "related to a workout that does not exist"
    case notEffortHiddenWorkout = "not related to the other app's workout"
    case effortHiddenWorkoutOrOwnSource = "related to the other app's workout or itself"
    /// The hidden workout named by UUID: no sample of a queried type; the workout itself to a
    /// relationship query.
    case hiddenWorkoutUUID = "the other app's workout's UUID"
    /// `predicateForObjectsWithNoCorrelation()`.
    case noCorrelation = "in no correlation"
    /// The source revision naming the other app with this host's product type and system (issue 15).
    case otherSystem = "source revision: the other app on this host"
    /// `predicateForObjects(from: Set<HKDevice>)`: the other app's device.
    case devices = "device set: the other app's watch"

    var namesAWorkout: Bool {
        [.hiddenWorkout, .ownWorkout, .freshWorkout, .hiddenWorkoutAndTime, .hiddenWorkoutOrOwnSource, .notHiddenWorkout,
         .effortHiddenWorkout, .notEffortHiddenWorkout].contains(self)
    }

    /// Whether the cell is generated. An effort predicate asks about a relation, which only an
    /// effort type's sample can have (`WorkoutEffortRules.effortTypes`: healthd refuses to relate
    /// any other), so it runs on the effort type's sample queries and as the workout filter of
    /// relationship queries, and not on the types that can hold no relation.
    func applies(to type: String) -> Bool {
        guard relatesToAWorkout else { return true }
        return WorkoutEffortRules.effortTypes.contains(type)
    }

    /// `predicateForWorkoutEffortSamplesRelated`, alone or composed.
    var relatesToAWorkout: Bool {
        [.effortHiddenWorkout, .effortOwnWorkout, .effortFreshWorkout, .notEffortHiddenWorkout, .effortHiddenWorkoutOrOwnSource].contains(self)
    }

    /// Names the hidden workout in an effort predicate: matches the hidden relation's score.
    var relatesToTheHiddenWorkout: Bool { [.effortHiddenWorkout, .notEffortHiddenWorkout, .effortHiddenWorkoutOrOwnSource].contains(self) }

    /// As a workout predicate (relationship queries): selects the hidden workout, which holds
    /// the other app's related score, among the workouts other than the app's own.
    var selectsTheHiddenWorkout: Bool { [.none, .allTime, .oldOnly, .otherSource, .workoutType, .hiddenWorkoutUUID, .otherSystem].contains(self) }

    /// As a workout predicate: selects the app's own workout.
    var selectsItsOwnWorkout: Bool { [.none, .allTime, .oldOnly, .ownSource, .uuids].contains(self) }

    var namesTheHiddenWorkout: Bool { [.hiddenWorkout, .hiddenWorkoutAndTime, .hiddenWorkoutOrOwnSource, .notHiddenWorkout].contains(self) }

    /// Matches samples only through the hidden workout (so answers differ where it is visible).
    var matchesThroughHiddenWorkout: Bool { self == .hiddenWorkout || self == .hiddenWorkoutAndTime }

    func predicate(type: String, _ inputs: MatrixInputs) -> SamplePredicate? {
        let everything = SamplePredicate.dateRange(start: MatrixData.old(-600), end: MatrixData.recent(600), strictStart: false, strictEnd: false)
        switch self {
        case .none: return nil
        case .allTime: return everything
        case .oldOnly: return .dateRange(start: MatrixData.old(-60), end: MatrixData.old(120), strictStart: false, strictEnd: false)
        case .uuids: return .uuids(Set(inputs.otherUUIDs + inputs.ownUUIDs))
        case .hiddenWorkout: return .workout(inputs.hiddenWorkout)
        case .ownWorkout: return .workout(inputs.ownWorkout)
        case .freshWorkout: return .workout(ProbeCatalog.freshUUID)
        case .otherSource: return .sources([MatrixData.otherApp])
        case .ownSource: return .sources([inputs.probingApp])
        case .device: return .device(.name, allowedValues: [MatrixData.deviceName])
        case .metadata: return .metadata(key: MatrixData.metadataKey, .exists)
        case .value:
            switch type {
            case ProbeData.steps: return .quantity(.greaterThan, value: 150, unit: "count")
            case ProbeData.systolic: return .quantity(.greaterThan, value: 125, unit: "mmHg")
            case ProbeData.effort: return .quantity(.greaterThan, value: 5.5, unit: "appleEffortScore")
            default: return .quantity(.greaterThan, value: 1.15, unit: "count/s")
            }
        case .workoutType: return .workoutActivityType(HKWorkoutActivityType.running.rawValue)
        case .hiddenWorkoutAndTime: return .and([.workout(inputs.hiddenWorkout), everything])
        case .hiddenWorkoutOrOwnSource: return .or([.workout(inputs.hiddenWorkout), .sources([inputs.probingApp])])
        case .notHiddenWorkout: return .not(.workout(inputs.hiddenWorkout))
        case .effortHiddenWorkout: return .workoutEffort(workout: inputs.hiddenWorkout, activity: nil)
        case .effortOwnWorkout: return .workoutEffort(workout: inputs.ownWorkout, activity: nil)
        case .effortFreshWorkout: return .workoutEffort(workout: ProbeCatalog.freshUUID, activity: nil)
        case .notEffortHiddenWorkout: return .not(.workoutEffort(workout: inputs.hiddenWorkout, activity: nil))
        case .effortHiddenWorkoutOrOwnSource: return .or([.workoutEffort(workout: inputs.hiddenWorkout, activity: nil), .sources([inputs.probingApp])])
        case .hiddenWorkoutUUID: return .uuids([inputs.hiddenWorkout])
        case .noCorrelation: return .noCorrelation
        case .devices: return .devices([DeviceRecord(name: MatrixData.deviceName)])
        case .otherSystem:
            let host = HostStamp.current()
            return .sourceRevisions([SourceRevisionMatch(bundleIdentifier: MatrixData.otherApp, version: nil, productType: host.product,
                                                         operatingSystemVersion: SystemVersion(parsing: host.system))])
        }
    }
}

/// What a cell's request may name, in the world being probed.
struct MatrixInputs: Sendable {
    let probingApp: String
    /// The probing app's own sample UUIDs and its workout (minted afresh in each world).
    let ownUUIDs: [UUID]
    let ownWorkout: UUID
    /// The other app's sample UUIDs in this world (saved in both).
    let otherUUIDs: [UUID]
    /// The hidden world's workout of the other app; names nothing in the control world.
    let hiddenWorkout: UUID
}
