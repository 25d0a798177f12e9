import Foundation
import HealthModel
import HealthWire

/// `WorkoutValueRedactionTests`' steps: every read kind that returns workouts — sample
/// (plain, sorted by date or by total distance and limited), anchored from the start and continued, anchored over a set of
/// types, long-running anchored, observer and the query after it, sources — with no predicate
/// and with each workout total, statistic and activity-statistic predicate, each also under NOT
/// (a hidden value must match as an absent one: never a comparison, always its negation).
extension ProbeCatalog {
    private static let energyOver100 = SamplePredicate.workoutValue(.total(.energyBurned, .greaterThan, 100))
    private static let distanceOver1km = SamplePredicate.workoutValue(.total(.distance, .greaterThan, 1000))
    private static let valuesEnergySumOver100 = SamplePredicate.workoutValue(.statistic(WorkoutStatisticTest(
        quantityType: WorkoutValueData.energy, statistic: .sum, op: .greaterThan, value: 100)))
    private static let heartRateMaxAtLeast3 = SamplePredicate.workoutValue(.statistic(WorkoutStatisticTest(
        quantityType: WorkoutValueData.heartRate, statistic: .maximum, op: .greaterThanOrEqualTo, value: 3)))
    private static let activityHeartRateAverageOver2 = WorkoutActivityTest.statistic(WorkoutStatisticTest(
        quantityType: WorkoutValueData.heartRate, statistic: .average, op: .greaterThan, value: 2))
    private static let activityEnergySumOver50 = WorkoutActivityTest.statistic(WorkoutStatisticTest(
        quantityType: WorkoutValueData.energy, statistic: .sum, op: .greaterThan, value: 50))

    private static let valuePredicates: [(String, SamplePredicate)] = {
        let leaves: [(String, SamplePredicate)] = [
            ("energy over 100 kcal", energyOver100), ("distance over 1 km", distanceOver1km),
            ("an energy sum over 100 kcal", valuesEnergySumOver100), ("a heart-rate maximum of at least 3/s", heartRateMaxAtLeast3),
            ("an activity's heart-rate average over 2/s", .workoutValue(.activity(activityHeartRateAverageOver2))),
            ("an activity's energy sum over 50 kcal", .workoutValue(.activity(activityEnergySumOver50))),
        ]
        return leaves + leaves.map { ("not \($0.0)", .not($0.1)) } + [
            ("an activity not over 2/s heart-rate average", .workoutValue(.activity(.not(activityHeartRateAverageOver2)))),
            ("a walking activity over 50 kcal", .workoutValue(.activity(.and([.activityType(HKWorkoutActivityType.walking.rawValue),
                                                                                 activityEnergySumOver50])))),
        ]
    }()

    static let workoutValueSteps: [ProbeCall] = {
        let workout = HKWorkoutTypeIdentifier
        var calls: [ProbeCall] = [
            .query("values: every workout") { _ in SampleQuerySpec(typeIdentifier: workout, sort: [SampleSort(.startDate, ascending: true)]) },
        ]
        for (label, predicate) in valuePredicates {
            calls.append(.query("values: workouts with \(label)") { _ in
                SampleQuerySpec(typeIdentifier: workout, predicate: predicate, sort: [SampleSort(.startDate, ascending: true)])
            })
        }
        calls += [
            // The other app's workout starts first: with its value visible it would be the one.
            .query("values: energy over 100 kcal, oldest 1") { _ in
                SampleQuerySpec(typeIdentifier: workout, predicate: energyOver100, sort: [SampleSort(.startDate, ascending: true)], limit: 1)
            },
            // The sort by a total is decided under the same rule as the total (a hidden distance
            // sorts as an absent one): the triathlon, longest, must not come first where any of
            // its legs' distance types is hidden, nor the row where its type is.
            .query("values: longest distance first, limit 2") { _ in
                SampleQuerySpec(typeIdentifier: workout, sort: [SampleSort(.workout(.distance), ascending: false)], limit: 2)
            },
            .query("values: shortest distance first") { _ in
                SampleQuerySpec(typeIdentifier: workout, sort: [SampleSort(.workout(.distance), ascending: true)])
            },
            .stream("values anchored: from the start, limit 1", .queryAnchored) { _ in
                AnchoredQuerySpec(typeIdentifier: workout, limit: 1).wireBytes()
            },
            .stream("values anchored: continued", .queryAnchored) {
                AnchoredQuerySpec(typeIdentifier: workout, anchor: $0.anchor(of: "values anchored: from the start, limit 1")).wireBytes()
            },
            .stream("values anchored: not a heart-rate maximum of at least 3/s", .queryAnchored) { _ in
                AnchoredQuerySpec(typeIdentifier: workout, predicate: .not(heartRateMaxAtLeast3)).wireBytes()
            },
            .stream("values anchored set: workouts over 100 kcal beside workouts over 1 km", .queryAnchored) { _ in
                AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: workout, predicate: energyOver100),
                                                TypePredicateSpec(typeIdentifier: workout, predicate: .not(distanceOver1km))]).wireBytes()
            },
            .unary("values sources: workouts with an energy sum over 100 kcal", .querySources) { _ in
                TypePredicateSpec(typeIdentifier: workout, predicate: valuesEnergySumOver100).wireBytes()
            },
            .unary("values sources: workouts not over 1 km", .querySources) { _ in
                TypePredicateSpec(typeIdentifier: workout, predicate: .not(distanceOver1km)).wireBytes()
            },
            .open("values observer: opened", as: "values-observer", .observeChanges) { _ in
                TypePredicateSpec(typeIdentifier: workout, predicate: .or([energyOver100, heartRateMaxAtLeast3, distanceOver1km])).wireBytes()
            },
            .watch("values observer: first update", "values-observer", of: .observeChanges, expectingMore: true),
            .unary("values observer: acknowledged", .acknowledgeObserverUpdate) {
                ($0.observerUpdates["values-observer"] ?? ObserverDelivery(observerID: 0, delivery: 0)).wireBytes()
            },
            .open("values long-running anchored: opened", as: "values-anchored", .queryAnchored) { _ in
                AnchoredQuerySpec(typeIdentifier: workout, longRunning: true).wireBytes()
            },
            .watch("values long-running anchored: initial results", "values-anchored", of: .queryAnchored, expectingMore: true),
            .unary("values: own save of a second workout", .save) { _ in
                SampleList([WorkoutValueData.ownWorkout(from: 120, to: 150)]).wireBytes()
            },
            .watch("values observer: after its own save", "values-observer", of: .observeChanges, expectingMore: true),
            .watch("values long-running anchored: after its own save", "values-anchored", of: .queryAnchored, expectingMore: true),
            .close("values observer: closed", "values-observer", of: .observeChanges),
            .close("values long-running anchored: closed", "values-anchored", of: .queryAnchored),
            // The observer's app re-queries, as an HKObserverQuery's handler does.
            .query("values: every workout, after the observer") { _ in
                SampleQuerySpec(typeIdentifier: workout, sort: [SampleSort(.startDate, ascending: true)])
            },
        ]
        return calls
    }()

    /// Steps whose answer shows the other app's values to a reader of every type: each must
    /// differ from a twin world without the values of `type` (the positive control). The
    /// anchored query limited to one workout shows the other app's first workout only, so it
    /// differs only where that workout holds a value of `type`.
    static func workoutValuePositiveControls(without type: String) -> [String] {
        let firstChanges = WorkoutValueData.otherWorkouts(without: type).first != WorkoutValueData.otherWorkouts(without: nil).first
        return ["values: every workout", "values: every workout, after the observer"] + (firstChanges ? ["values anchored: from the start, limit 1"] : [])
    }
}
