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

/// `delete-objects TYPE UUID [TYPE UUID]…`: fetches each object (of its own type, as this app
/// sees it) and deletes them all in one `delete(_:)` call — e.g. a correlation beside plain
/// samples. Prints `ok N`.
func deleteObjectsCommand(_ arguments: [String]) async throws {
    let pairs = Array(arguments.dropFirst())
    guard !pairs.isEmpty, pairs.count.isMultiple(of: 2) else { usage("delete-objects TYPE UUID [TYPE UUID]…") }
    var objects: [HKSample] = []
    for index in stride(from: 0, to: pairs.count, by: 2) {
        guard let sampleType = type(pairs[index]) as? HKSampleType else { usage("not a sample type: \(pairs[index])") }
        guard let object = try await fetch(sampleType, [pairs[index + 1]]).first else {
            print("error notfound \(pairs[index + 1]) is not visible to this app")
            exit(3)
        }
        objects.append(object)
    }
    try await deletionStore.delete(objects)
    print("ok \(objects.count)")
}
