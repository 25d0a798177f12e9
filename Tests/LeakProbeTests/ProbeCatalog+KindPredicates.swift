import Foundation
import HealthModel
import HealthWire

/// Issue 15's predicates (workout totals, workout and activity statistics, activities, category
/// lists, electrocardiograms) on every read kind that takes a predicate — sample, sorted and
/// limited, anchored (one-shot and long-running), observer, sources, statistics, collections,
/// correlation members, deletion — alone and nested in AND/OR/NOT and beside object-naming
/// predicates; and junk through the same paths (numbers that are not finite or become infinite
/// in the stored unit, a NUL in a string, too many conditions, nesting too deep, a category
/// predicate on a quantity type). The hidden world's workout (`ProbeData.hiddenWorkout`) holds
/// what each predicate looks for; the probing app's own workout holds none of it. Every answer
/// must be the control world's, and (ReadDecisionTests) every refusal the same whatever the
/// read decision.
extension ProbeCatalog {
    static let workoutType = HKWorkoutTypeIdentifier
    static let energy = ProbeData.activeEnergy
    static let over100kcal = SamplePredicate.workoutValue(.total(.energyBurned, .greaterThan, 100))
    static let walkingActivity = SamplePredicate.workoutValue(.activity(.activityType(HKWorkoutActivityType.walking.rawValue)))
    static let energySumOver100 = SamplePredicate.workoutValue(.statistic(WorkoutStatisticTest(quantityType: ProbeData.activeEnergy,
                                                                                                 statistic: .sum, op: .greaterThan, value: 100)))

    static let kindPredicates: [ProbeStep] = kindQueries.map(ProbeStep.call) + kindOtherReads.map(ProbeStep.call)
        + kindJunk.map(ProbeStep.call) + kindLongRunning

    /// Sample queries of workouts: each leaf, compositions, and sort/limit with hidden rows
    /// ordered before the app's own.
    static let kindQueries: [ProbeCall] = [
        .query("kind: workouts burning over 100 kcal") { _ in SampleQuerySpec(typeIdentifier: workoutType, predicate: over100kcal) },
        .query("kind: workouts over 1 km") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .workoutValue(.total(.distance, .greaterThan, 1000)))
        },
        .query("kind: workouts with an energy sum over 100 kcal") { _ in SampleQuerySpec(typeIdentifier: workoutType, predicate: energySumOver100) },
        .query("kind: workouts with a heart-rate maximum of at least 3/s") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .workoutValue(.statistic(WorkoutStatisticTest(
                quantityType: heartRate, statistic: .maximum, op: .greaterThanOrEqualTo, value: 3))))
        },
        .query("kind: workouts with a walking activity") { _ in SampleQuerySpec(typeIdentifier: workoutType, predicate: walkingActivity) },
        .query("kind: workouts with an activity longer than 20 min") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .workoutValue(.activity(.duration(.greaterThan, 1200))))
        },
        .query("kind: workouts with an activity inside the first half hour") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .workoutValue(.activity(.dateRange(
                start: ProbeData.time(0), end: ProbeData.time(31), strictStart: true, strictEnd: true))))
        },
        .query("kind: workouts with an activity's heart-rate average over 2/s") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .workoutValue(.activity(.statistic(WorkoutStatisticTest(
                quantityType: heartRate, statistic: .average, op: .greaterThan, value: 2)))))
        },
        .query("kind: walking and not under 10 min, in one activity") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .workoutValue(.activity(.and([
                .activityType(HKWorkoutActivityType.walking.rawValue), .not(.duration(.lessThan, 600)),
            ]))))
        },
        .query("kind: not (over 100 kcal or a walking activity)") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .not(.or([over100kcal, walkingActivity])))
        },
        .query("kind: over 100 kcal and not its own, newest 1") {
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .and([over100kcal, .not(.sources([$0.probingApp]))]),
                            sort: [SampleSort(.startDate, ascending: false)], limit: 1)
        },
        // Both workouts start at minute 0; the hidden one was saved first, so it sorts first.
        .query("kind: over 100 kcal or its own workout, oldest 1") {
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .or([over100kcal, .uuids([$0.ownWorkout])]),
                            sort: [SampleSort(.startDate, ascending: true)], limit: 1)
        },
        .query("kind: activity duration below 1e303 s (infinite in microseconds)") { _ in
            SampleQuerySpec(typeIdentifier: workoutType, predicate: .workoutValue(.activity(.duration(.lessThan, 1e303))))
        },
        .query("kind: heart rate in the hidden workout or in any workout (a sample is none)") {
            SampleQuerySpec(typeIdentifier: heartRate, predicate: .or([.workout($0.hidden.workout), .workoutValue(.total(.duration, .greaterThanOrEqualTo, 0))]))
        },
        .query("kind: heart rate not in a workout over 100 kcal (every sample)") { _ in
            SampleQuerySpec(typeIdentifier: heartRate, predicate: .not(over100kcal), sort: [SampleSort(.startDate, ascending: true)])
        },
        .query("kind: electrocardiograms classified sinus rhythm") { _ in
            SampleQuerySpec(typeIdentifier: AppWritability.electrocardiogramTypeIdentifier, predicate: .electrocardiogram(.classification(1)))
        },
        .query("kind: heart rate that is not an electrocardiogram") { _ in
            SampleQuerySpec(typeIdentifier: heartRate, predicate: .not(.electrocardiogram(.symptomsStatus(2))))
        },
    ]

    /// The other read kinds with the same predicates.
    static let kindOtherReads: [ProbeCall] = [
        .stream("kind anchored: workouts with a walking activity, from the start", .queryAnchored) { _ in
            AnchoredQuerySpec(typeIdentifier: workoutType, predicate: walkingActivity).wireBytes()
        },
        .stream("kind anchored: workouts not over 100 kcal, limit 1", .queryAnchored) { _ in
            AnchoredQuerySpec(typeIdentifier: workoutType, predicate: .not(over100kcal), limit: 1).wireBytes()
        },
        .stream("kind anchored set: workouts over 100 kcal beside heart rate", .queryAnchored) { _ in
            AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: workoutType, predicate: over100kcal),
                                            TypePredicateSpec(typeIdentifier: heartRate, predicate: .not(walkingActivity))]).wireBytes()
        },
        .unary("kind sources: workouts with an energy sum over 100 kcal", .querySources) { _ in
            TypePredicateSpec(typeIdentifier: workoutType, predicate: energySumOver100).wireBytes()
        },
        .unary("kind sources: workouts with a walking activity or not over 100 kcal", .querySources) { _ in
            TypePredicateSpec(typeIdentifier: workoutType, predicate: .or([walkingActivity, .not(over100kcal)])).wireBytes()
        },
        statisticsQuery("kind statistics: heart rate not in a workout over 100 kcal", heartRate, [.discreteAverage, .discreteMax, .separateBySource],
                        .not(over100kcal)),
        statisticsQuery("kind statistics: energy in the hidden workout or in a walking activity", energy, [.cumulativeSum], nil) {
            .or([.workout($0.hidden.workout), walkingActivity])
        },
        collection("kind collection: steps not in a workout with an energy sum", steps, [.cumulativeSum, .separateBySource],
                   StatisticsInterval(minutes: 10), predicate: .not(energySumOver100)),
        .stream("kind correlations: systolic not in a workout over 100 kcal", .queryCorrelations) { _ in
            CorrelationQuerySpec(typeIdentifier: bloodPressure, objectPredicates: [ProbeData.systolic: .not(over100kcal)]).wireBytes()
        },
        .unary("kind delete matching: its workouts with a walking activity (none)", .deleteMatching) { _ in
            MatchingDeletion(typeIdentifier: workoutType, predicate: walkingActivity).wireBytes()
        },
        .unary("kind delete matching: its workouts over 100 kcal (none)", .deleteMatching) { _ in
            MatchingDeletion(typeIdentifier: workoutType, predicate: .and([over100kcal, .not(.uuids([freshUUID]))])).wireBytes()
        },
        .query("kind: workouts after the deletions") { _ in SampleQuerySpec(typeIdentifier: workoutType) },
    ]

    /// Junk: each must be refused, identically in every world and state. Every predicate goes
    /// through a sample query and an observer (the long-running kind that once checked late);
    /// those refused by the request's meaning rather than its encoding (`semantic`) go through
    /// every other read kind too — the wire-level ones are refused by the one decoder
    /// (`PredicateWire.read`) every method shares.
    static let kindJunk: [ProbeCall] = {
        // 1e308 count/ms is finite as given and infinite in the stored count/s.
        let overflowing = SamplePredicate.quantity(.greaterThan, value: 1e308, unit: "count/ms")
        let nan = SamplePredicate.workoutValue(.total(.energyBurned, .greaterThan, .nan))
        let tooMany = SamplePredicate.or((0...SamplePredicate.maximumConditions).map { _ in walkingActivity })
        let tooManyActivities = SamplePredicate.workoutValue(.activity(.or((0...SamplePredicate.maximumConditions).map { _ in
            .activityType(HKWorkoutActivityType.walking.rawValue)
        })))
        let tooDeep = (0..<200).reduce(over100kcal) { inner, _ in .not(inner) }
        let tooDeepActivity = SamplePredicate.workoutValue(.activity((0..<200).reduce(WorkoutActivityTest.duration(.greaterThan, 0)) { inner, _ in
            .not(inner)
        }))
        let nulKey = SamplePredicate.metadata(key: "key\u{0}with a NUL", .exists)
        let semantic: [(String, SamplePredicate)] = [
            ("infinite after conversion", overflowing), ("a category list on heart rate", .not(.categoryValues([0, 1]))),
        ]
        let encoded: [(String, SamplePredicate)] = [
            ("a NaN workout total", nan), ("too many conditions", tooMany), ("too many activity conditions", tooManyActivities),
            ("nested too deep", tooDeep), ("activity test nested too deep", tooDeepActivity), ("a NUL in a metadata key", nulKey),
        ]
        var calls: [ProbeCall] = []
        for (index, (label, predicate)) in (semantic + encoded).enumerated() {
            let observer = "junk-observer-\(index)"
            calls += [
                .query("junk sample query: \(label)") { _ in SampleQuerySpec(typeIdentifier: heartRate, predicate: predicate) },
                .open("junk observer: \(label)", as: observer, .observeChanges) { _ in
                    TypePredicateSpec(typeIdentifier: heartRate, predicate: predicate).wireBytes()
                },
                .watch("junk observer answer: \(label)", observer, of: .observeChanges, expectingMore: true),
                .close("junk observer closed: \(label)", observer, of: .observeChanges),
            ]
        }
        for (label, predicate) in semantic {
            calls += [
                .stream("junk anchored: \(label)", .queryAnchored) { _ in AnchoredQuerySpec(typeIdentifier: heartRate, predicate: predicate).wireBytes() },
                .unary("junk sources: \(label)", .querySources) { _ in TypePredicateSpec(typeIdentifier: heartRate, predicate: predicate).wireBytes() },
                statisticsQuery("junk statistics: \(label)", heartRate, [.discreteAverage], predicate),
                collection("junk collection: \(label)", heartRate, [.discreteAverage], StatisticsInterval(hours: 1), predicate: predicate),
                .stream("junk correlation members: \(label)", .queryCorrelations) { _ in
                    CorrelationQuerySpec(typeIdentifier: bloodPressure, objectPredicates: [ProbeData.systolic: predicate]).wireBytes()
                },
                .unary("junk delete matching: \(label)", .deleteMatching) { _ in MatchingDeletion(typeIdentifier: heartRate, predicate: predicate).wireBytes() },
            ]
        }
        return calls
    }()

    /// An observer and a long-running anchored query of workouts with a workout predicate,
    /// across a hidden save of a workout it would match and the app's own.
    static let kindLongRunning: [ProbeStep] = [
        .call(.open("kind observer: opened", as: "kind-observer", .observeChanges) { _ in
            TypePredicateSpec(typeIdentifier: workoutType, predicate: over100kcal).wireBytes()
        }),
        .call(.watch("kind observer: first update", "kind-observer", of: .observeChanges, expectingMore: true)),
        .call(.unary("kind observer: acknowledge the first update", .acknowledgeObserverUpdate) {
            ($0.observerUpdates["kind-observer"] ?? ObserverDelivery(observerID: 0, delivery: 0)).wireBytes()
        }),
        .call(.open("kind long-running anchored: opened", as: "kind-anchored", .queryAnchored) { _ in
            AnchoredQuerySpec(typeIdentifier: workoutType, predicate: .or([energySumOver100, walkingActivity]), longRunning: true).wireBytes()
        }),
        .call(.watch("kind long-running anchored: initial results", "kind-anchored", of: .queryAnchored, expectingMore: true)),
        .hidden(HiddenAction(name: "save a workout over 100 kcal with a walking activity", method: .save) { runs in
            var record = ProbeData.hiddenWorkout
            record.uuid = UUID()
            record.metadata = ["run": .number(Double(runs))]
            return SampleList([record]).wireBytes()
        }),
        .call(.watch("kind observer: after a hidden save", "kind-observer", of: .observeChanges, expectingMore: false)),
        .call(.watch("kind long-running anchored: after a hidden save", "kind-anchored", of: .queryAnchored, expectingMore: false)),
        .call(.unary("kind: own save of a workout over 100 kcal", .save) { _ in
            var record = ProbeData.workout(.cycling, from: 70, to: 100)
            record.value = .workout(WorkoutValue(activityType: HKWorkoutActivityType.cycling.rawValue, duration: 1800,
                                                 totalEnergyBurned: RecordedQuantity(200, unit: "kcal"),
                                                 statistics: [WorkoutStatisticsRecord(quantityType: ProbeData.activeEnergy, startDate: ProbeData.time(70),
                                                                                      endDate: ProbeData.time(100), sum: RecordedQuantity(200, unit: "kcal"))]))
            return SampleList([record]).wireBytes()
        }),
        .call(.watch("kind observer: after its own save", "kind-observer", of: .observeChanges, expectingMore: true)),
        .call(.watch("kind long-running anchored: after its own save", "kind-anchored", of: .queryAnchored, expectingMore: true)),
        .call(.close("kind observer: closed", "kind-observer", of: .observeChanges)),
        .call(.close("kind long-running anchored: closed", "kind-anchored", of: .queryAnchored)),
    ] + junkObserverAcrossAHiddenSave

    /// An observer whose predicate cannot be compiled for its type (kilograms of heart rate),
    /// across a hidden save of that type. healthd once checked an observer's predicate only when
    /// a change woke it: the first update went out, and the first save of the type — by any
    /// app, one the observer's app may not read included — ended the query with the unit
    /// error, telling the app that someone saved heart rate. Now it is refused when opened.
    static let junkObserverAcrossAHiddenSave: [ProbeStep] = [
        .call(.open("junk observer across a hidden save: opened", as: "junk-live", .observeChanges) { _ in
            TypePredicateSpec(typeIdentifier: heartRate, predicate: .quantity(.greaterThan, value: 1, unit: "kg")).wireBytes()
        }),
        .call(.watch("junk observer across a hidden save: first answer", "junk-live", of: .observeChanges, expectingMore: true)),
        .call(.unary("junk observer across a hidden save: acknowledge", .acknowledgeObserverUpdate) {
            ($0.observerUpdates["junk-live"] ?? ObserverDelivery(observerID: 0, delivery: 0)).wireBytes()
        }),
        .hidden(HiddenAction(name: "save a heart rate sample while a junk observer waits", method: .save) { runs in
            SampleList([ProbeData.heartRate(66, 1.95 + Double(runs) / 100)]).wireBytes()
        }),
        .call(.watch("junk observer across a hidden save: after the hidden save", "junk-live", of: .observeChanges, expectingMore: false)),
        .call(.close("junk observer across a hidden save: closed", "junk-live", of: .observeChanges)),
    ]
}
