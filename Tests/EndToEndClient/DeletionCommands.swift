// e2e-client commands for deletion (see main.swift's usage comment).
import Foundation
import HealthKit

private let deletionStore = HKHealthStore()

/// `delete TYPE UUID… [--twice]`: fetches the objects (those this app can see) and deletes them
/// in one call; with --twice, deletes them again afterwards (which must fail). Prints `ok N`.
func deleteCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 3, let sampleType = type(arguments[1]) as? HKSampleType else { usage("delete TYPE UUID… [--twice]") }
    let uuids = arguments.dropFirst(2).filter { !$0.hasPrefix("--") }
    let objects = try await fetch(sampleType, Array(uuids))
    guard objects.count == uuids.count else {
        print("error notfound \(uuids.count - objects.count) of the objects are not visible to this app")
        exit(3)
    }
    try await deletionStore.delete(objects)
    if arguments.contains("--twice") { try await deletionStore.delete(objects) }
    print("ok \(objects.count)")
}

/// `delete-matching TYPE [--start S] [--end E] [--workout UUID]`: prints `ok COUNT`.
func deleteMatchingCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 2, let sampleType = type(arguments[1]) as? HKSampleType else { usage("delete-matching TYPE [options]") }
    let start = values(of: "--start", in: arguments).first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
    let end = values(of: "--end", in: arguments).first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
    var predicates = [HKQuery.predicateForSamples(withStart: start, end: end)]
    if let workout = values(of: "--workout", in: arguments).first {
        predicates.append(HKQuery.predicateForObjects(from: try await fetchWorkout(workout)))
    }
    let count = try await deletionStore.deleteObjects(of: sampleType, predicate: NSCompoundPredicate(andPredicateWithSubpredicates: predicates))
    print("ok \(count)")
}
