import Foundation
import HealthKit

// State of Mind (iOS 18) written as Apple documents it: HKStateOfMind(date:kind:valence:labels:
// associations:), save(_:), then sample queries for stateOfMindType(), one with
// predicateForStatesOfMind(with:) and (withValence:predicateOperatorType:).

/// Saves a momentary emotion and a daily mood, reads them back oldest first, and prints each
/// as kind:valence:classification:labels:associations.
func stateOfMindSnippet(_ healthStore: HKHealthStore) async throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let emotion = HKStateOfMind(date: date, kind: .momentaryEmotion, valence: 0.5,
                                labels: [.happy, .satisfied], associations: [.work, .weather])
    let mood = HKStateOfMind(date: date.addingTimeInterval(3_600), kind: .dailyMood, valence: 0.25,
                             labels: [], associations: [.family])
    try await healthStore.save([emotion, mood])

    let sortByDate = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: HKSampleType.stateOfMindType(), predicate: nil, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: [sortByDate]) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    let described = samples.compactMap { $0 as? HKStateOfMind }.map { state in
        "\(state.kind):\(state.valence):\(state.valenceClassification):"
            + state.labels.map { "\($0)" }.joined(separator: ",") + ":"
            + state.associations.map { "\($0)" }.joined(separator: ",")
    }
    // predicateForStatesOfMind(with: association), as Apple's wellbeing sample filters by one.
    let workPredicate = HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Association.work)
    let pleasant = HKQuery.predicateForStatesOfMind(withValence: 0, predicateOperatorType: .greaterThan)
    let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [workPredicate, pleasant])
    let atWork: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: HKSampleType.stateOfMindType(), predicate: compound, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    print("ok \(samples.count) " + described.joined(separator: " ") + " work:\(atWork.count)")
}

/// A valence outside −1…1: HealthKit refuses the sample ("Only valence values in the range
/// [-1, +1] are supported") with errorInvalidArgument; nothing is stored.
func stateOfMindOutOfRangeSnippet(_ healthStore: HKHealthStore) async throws {
    let state = HKStateOfMind(date: Date(timeIntervalSince1970: 1_700_000_000), kind: .momentaryEmotion,
                              valence: 1.5, labels: [.calm], associations: [])
    do {
        try await healthStore.save(state)
        print("ok saved")
    } catch let error as HKError where error.code == .errorInvalidArgument {
        print("ok invalidArgument")
    }
}
