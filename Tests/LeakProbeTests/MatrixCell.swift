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
        (kind == .correlations ? [ProbeData.systolic] : MatrixState.queried).flatMap { type in
            MatrixPredicate.allCases.filter { !kind.isLongRunning || $0.namesAWorkout }.map { MatrixCell(kind: kind, type: type, predicate: $0) }
        }
    }

    /// Whether the cell must show the hidden association where it is visible: a predicate that
    /// matches through the hidden workout, on a query kind whose answer lists or measures what
    /// matched (an observer's update says only that something may have changed).
    var isPositiveControl: Bool { predicate.matchesThroughHiddenWorkout && kind != .observer }

    /// The request for this cell.
    func payload(_ inputs: MatrixInputs) -> [UInt8] {
        let predicate = self.predicate.predicate(type: type, inputs)
        let options: HKStatisticsOptions = type == ProbeData.steps ? [.cumulativeSum, .separateBySource] : [.discreteAverage, .discreteMax, .mostRecent]
        let statistics = StatisticsQuerySpec(typeIdentifier: type, predicate: predicate, options: options)
        let collection = StatisticsCollectionSpec(statistics: statistics, anchor: ProbeCatalog.dayAnchor,
                                                  interval: StatisticsInterval(hours: 1), timeZoneIdentifier: "UTC")
        switch kind {
        case .samples: return SampleQuerySpec(typeIdentifier: type, predicate: predicate).wireBytes()
        case .anchored: return AnchoredQuerySpec(typeIdentifier: type, predicate: predicate).wireBytes()
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
        }
    }
}

enum MatrixQueryKind: String, CaseIterable, Sendable {
    case samples = "sample query"
    case anchored = "anchored query"
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

    var method: HealthStoreMethod {
        switch self {
        case .samples: .querySamples
        case .anchored, .anchoredLongRunning, .anchoredSet, .anchoredSetLongRunning: .queryAnchored
        case .statistics: .queryStatistics
        case .collection: .queryStatisticsCollection
        case .sources: .querySources
        case .observer: .observeChanges
        case .collectionWatch: .watchStatisticsCollection
        case .correlations: .queryCorrelations
        }
    }

    var isUnary: Bool { self == .statistics || self == .sources }
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

    var namesAWorkout: Bool {
        [.hiddenWorkout, .ownWorkout, .freshWorkout, .hiddenWorkoutAndTime, .hiddenWorkoutOrOwnSource, .notHiddenWorkout].contains(self)
    }

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
            default: return .quantity(.greaterThan, value: 1.15, unit: "count/s")
            }
        case .workoutType: return .workoutActivityType(HKWorkoutActivityType.running.rawValue)
        case .hiddenWorkoutAndTime: return .and([.workout(inputs.hiddenWorkout), everything])
        case .hiddenWorkoutOrOwnSource: return .or([.workout(inputs.hiddenWorkout), .sources([inputs.probingApp])])
        case .notHiddenWorkout: return .not(.workout(inputs.hiddenWorkout))
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
