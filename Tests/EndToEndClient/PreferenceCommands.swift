// e2e-client commands for the user's preferences (see main.swift's usage comment).
import Foundation
import HealthKit

/// `watch-unit-changes TYPE… --count N`: observes `.HKUserPreferencesDidChange` from one store,
/// reads the types' preferred units (which opens the feed), prints `ready`, then for each
/// notification `changed K` and the units re-read (`unit TYPE UNIT` lines, sorted); after N of
/// them, `ok N`. Apple's pattern: the observer names the store (each store posts its own).
func watchUnitChanges(_ arguments: [String]) async throws {
    guard let count = values(of: "--count", in: arguments).first.flatMap(Int.init), count > 0 else {
        usage("watch-unit-changes TYPE… --count N")
    }
    let store = HKHealthStore()
    let names = arguments.dropFirst().prefix { !$0.hasPrefix("--") }
    let types = Set(names.compactMap { type($0) as? HKQuantityType })
    let (changes, continuation) = AsyncStream.makeStream(of: Void.self)
    let observer = NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: store, queue: nil) { _ in
        continuation.yield()
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    func printUnits() async throws {
        for (type, unit) in try await store.preferredUnits(for: types).sorted(by: { $0.key.identifier < $1.key.identifier }) {
            emit("unit \(type.identifier) \(unit.unitString)")
        }
    }
    try await printUnits()
    emit("ready")
    var seen = 0
    for await _ in changes {
        seen += 1
        emit("changed \(seen)")
        try await printUnits()
        if seen == count { break }
    }
    emit("ok \(seen)")
}
