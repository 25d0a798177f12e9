import Foundation
import HealthKit

/// `e2e-client kind-predicate QUERY TYPE PREDICATE ARGS…`: issue 15's workout, activity,
/// category-list and electrocardiogram predicates, built with the `HKQuery` functions as Apple
/// names them, run by one query kind. Prints `match START` per result (its start date, seconds
/// since 1970) in start order, then `ok COUNT`; a refused predicate fails as `error CODE …`.
///   QUERY: sample (HKSampleQuery), anchored (HKAnchoredObjectQuery from no anchor),
///          descriptor (HKSampleQueryDescriptor with `.sample(type:predicate:)`),
///          observe:N (HKObserverQuery; prints `update K` per update, then `ok N` after N updates)
///   PREDICATE ARGS:
///     duration OP SECONDS                          predicateForWorkouts(with:duration:)
///     energy OP VALUE UNIT                         predicateForWorkouts(with:totalEnergyBurned:)
///     distance OP VALUE UNIT                       predicateForWorkouts(with:totalDistance:)
///     statistic sum|min|max|avg OP VALUE UNIT TYPE predicateForWorkouts(operatorType:quantityType:…Quantity:)
///     activity-type RAW                            predicateForWorkouts(activityPredicate: predicateForWorkoutActivities(workoutActivityType:))
///     activity-duration OP SECONDS                 … predicateForWorkoutActivities(operatorType:duration:)
///     activity-statistic sum|min|max|avg OP VALUE UNIT TYPE   … predicateForWorkoutActivities(operatorType:quantityType:…Quantity:)
///     category-in V,V,…                            predicateForCategorySamples(equalTo:)
///     asleep                                       HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: HKCategoryValueSleepAnalysis.allAsleepValues)
///     ecg-classification RAW / ecg-symptoms RAW    predicateForElectrocardiograms(classification:) / (symptomsStatus:)
/// OP: lt, le, gt, ge, eq, ne, or any other word (passed as .like, which HealthKit refuses).
func kindPredicateCommand(_ store: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 4, let sampleType = type(arguments[2]) as? HKSampleType else {
        usage("kind-predicate QUERY TYPE PREDICATE ARGS…")
    }
    let predicate = kindPredicate(Array(arguments.dropFirst(3)))
    if arguments[1].hasPrefix("observe:") {
        guard let wanted = Int(arguments[1].dropFirst("observe:".count)) else { usage("kind-predicate observe:COUNT …") }
        try await observeMatching(store, sampleType, predicate, wanted)
        return
    }
    let samples: [HKSample]
    switch arguments[1] {
    case "sample":
        samples = try await withCheckedThrowingContinuation { continuation in
            store.execute(HKSampleQuery(sampleType: sampleType, predicate: predicate, limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, results, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
            })
        }
    case "anchored":
        samples = try await withCheckedThrowingContinuation { continuation in
            store.execute(HKAnchoredObjectQuery(type: sampleType, predicate: predicate, anchor: nil, limit: HKObjectQueryNoLimit) { _, added, _, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: added ?? []) }
            })
        }
    case "descriptor":
        samples = try await HKSampleQueryDescriptor(predicates: [.sample(type: sampleType, predicate: predicate)], sortDescriptors: []).result(for: store)
    default:
        usage("kind-predicate QUERY: sample, anchored or descriptor")
    }
    for start in samples.map({ Int($0.startDate.timeIntervalSince1970) }).sorted() { print("match \(start)") }
    print("ok \(samples.count)")
}

/// An HKObserverQuery with `predicate`: `update N` as each update arrives (HealthKit fires once at
/// start), then `ok N` after `wanted` updates.
private func observeMatching(_ store: HKHealthStore, _ sampleType: HKSampleType, _ predicate: NSPredicate, _ wanted: Int) async throws {
    let updates = AsyncThrowingStream<Void, any Error>.makeStream()
    let query = HKObserverQuery(sampleType: sampleType, predicate: predicate) { _, completion, error in
        if let error { updates.continuation.finish(throwing: error); return }
        updates.continuation.yield()
        completion()
    }
    store.execute(query)
    var count = 0
    for try await _ in updates.stream {
        count += 1
        emit("update \(count)")
        if count == wanted { break }
    }
    store.stop(query)
    emit("ok \(count)")
}

private func kindPredicate(_ words: [String]) -> NSPredicate {
    func number(_ index: Int) -> Double {
        guard index < words.count, let value = Double(words[index]) else { usage("\(words[0]) needs a number at \(index)") }
        return value
    }
    func word(_ index: Int) -> String {
        guard index < words.count else { usage("\(words[0]) needs \(index) arguments") }
        return words[index]
    }
    func quantity(_ index: Int) -> HKQuantity { HKQuantity(unit: HKUnit(from: word(index + 1)), doubleValue: number(index)) }
    func statistic(_ activity: Bool) -> NSPredicate {
        guard let quantityType = type(word(5)) as? HKQuantityType else { usage("statistic needs a quantity type") }
        let op = comparisonOperator(word(2)), value = quantity(3)
        switch (word(1), activity) {
        case ("sum", false): return HKQuery.predicateForWorkouts(operatorType: op, quantityType: quantityType, sumQuantity: value)
        case ("min", false): return HKQuery.predicateForWorkouts(operatorType: op, quantityType: quantityType, minimumQuantity: value)
        case ("max", false): return HKQuery.predicateForWorkouts(operatorType: op, quantityType: quantityType, maximumQuantity: value)
        case ("avg", false): return HKQuery.predicateForWorkouts(operatorType: op, quantityType: quantityType, averageQuantity: value)
        case ("sum", true): return HKQuery.predicateForWorkoutActivities(operatorType: op, quantityType: quantityType, sumQuantity: value)
        case ("min", true): return HKQuery.predicateForWorkoutActivities(operatorType: op, quantityType: quantityType, minimumQuantity: value)
        case ("max", true): return HKQuery.predicateForWorkoutActivities(operatorType: op, quantityType: quantityType, maximumQuantity: value)
        case ("avg", true): return HKQuery.predicateForWorkoutActivities(operatorType: op, quantityType: quantityType, averageQuantity: value)
        default: usage("statistic: sum, min, max or avg")
        }
    }
    switch words[0] {
    case "duration": return HKQuery.predicateForWorkouts(with: comparisonOperator(word(1)), duration: number(2))
    case "energy": return HKQuery.predicateForWorkouts(with: comparisonOperator(word(1)), totalEnergyBurned: quantity(2))
    case "distance": return HKQuery.predicateForWorkouts(with: comparisonOperator(word(1)), totalDistance: quantity(2))
    case "statistic": return statistic(false)
    case "activity-type":
        guard let activityType = HKWorkoutActivityType(rawValue: UInt(number(1))) else { usage("unknown activity type") }
        return HKQuery.predicateForWorkouts(activityPredicate: HKQuery.predicateForWorkoutActivities(workoutActivityType: activityType))
    case "activity-duration":
        return HKQuery.predicateForWorkouts(activityPredicate: HKQuery.predicateForWorkoutActivities(operatorType: comparisonOperator(word(1)),
                                                                                                      duration: number(2)))
    case "activity-statistic": return HKQuery.predicateForWorkouts(activityPredicate: statistic(true))
    case "category-in": return HKQuery.predicateForCategorySamples(equalTo: Set(word(1).split(separator: ",").compactMap { Int($0) }))
    // Every asleep stage (HKCategoryValueSleepAnalysis.allAsleepValues, iOS 16).
    case "asleep": return HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: HKCategoryValueSleepAnalysis.allAsleepValues)
    case "ecg-classification":
        guard let classification = HKElectrocardiogram.Classification(rawValue: Int(number(1))) else { usage("unknown classification") }
        return HKQuery.predicateForElectrocardiograms(classification: classification)
    case "ecg-symptoms":
        guard let status = HKElectrocardiogram.SymptomsStatus(rawValue: Int(number(1))) else { usage("unknown symptoms status") }
        return HKQuery.predicateForElectrocardiograms(symptomsStatus: status)
    default: usage("unknown predicate \(words[0])")
    }
}

private func comparisonOperator(_ word: String) -> NSComparisonPredicate.Operator {
    switch word {
    case "lt": .lessThan
    case "le": .lessThanOrEqualTo
    case "gt": .greaterThan
    case "ge": .greaterThanOrEqualTo
    case "eq": .equalTo
    case "ne": .notEqualTo
    default: .like
    }
}
