import Foundation
import Testing
import TestSupport

/// Every write an app can make is journaled while the store is locked, not refused
/// (ARCHITECTURE.md, "Locked store"): deletion by predicate, adding samples to a workout, route
/// data and finishing a route, enabling or disabling background delivery — each made by the
/// scripted app, a real sandboxed process using the SDK, validated when it is made, and merged in
/// order at unlock, exactly once even when healthd is killed mid-merge.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LockedStoreWritesEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    let workouts = "HKWorkoutTypeIdentifier"
    let app = "org.test.locked-writes", other = "org.test.locked-writes-other"

    private func started(entitlements: [String] = [], arguments: [String] = []) async throws -> RestartableHealthd {
        let healthd = try RestartableHealthd()
        try healthd.start(arguments)
        for appID in [app, other] {
            try await healthd.installClient(appID, entitlements: entitlements)
            for type in [steps, workouts] {
                try await healthd.set(appID, "share", type, allowed: true)
                try await healthd.set(appID, "read", type, allowed: true)
            }
        }
        return healthd
    }

    private func expectSuccess(_ result: ProcessResult) {
        #expect(result.status == 0, "\(result)")
    }

    /// Saves one step-count sample from `start` for a minute as `appID`; its UUID.
    private func saveStep(_ healthd: RestartableHealthd, as appID: String, at start: Int) async throws -> String {
        let saved = try await healthd.runApp(appID, ["save", steps, "10", "count", "\(start)", "\(start + 60)"])
        #expect(saved.okValue != nil, "\(saved)")
        return saved.okValue ?? ""
    }

    /// The UUIDs of the step-count samples `appID` can read (every source's: it has read permission).
    private func storedSteps(_ healthd: RestartableHealthd, as appID: String) async throws -> Set<String> {
        let query = try await healthd.runApp(appID, ["query", steps])
        #expect(query.okValue != nil, "\(query)")
        return Set(query.lines.filter { $0.hasPrefix("sample ") }.map { String($0.split(separator: " ")[1]) })
    }

    @Test func aDeletionByPredicateWhileLockedIsResolvedAtMergeInItsPlace() async throws {
        let healthd = try await started()
        let others = try await saveStep(healthd, as: other, at: 1_700_000_000)
        let before = try await saveStep(healthd, as: app, at: 1_700_000_060)
        expectSuccess(try await healthd.healthctl(["lock"]))
        let lockedBefore = try await saveStep(healthd, as: app, at: 1_700_000_120)
        // Accepted, answered 0: nothing is deleted until the merge.
        let deletion = try await healthd.runApp(app, ["delete-matching", steps, "--start", "1700000000", "--end", "1700000600"])
        #expect(deletion.okValue == "0", "\(deletion)")
        let lockedAfter = try await saveStep(healthd, as: app, at: 1_700_000_180)
        expectSuccess(try await healthd.healthctl(["unlock"]))

        // The deletion took the app's own samples saved before it (before the lock or while
        // locked), not the one saved after it, nor the other app's.
        let stored = try await storedSteps(healthd, as: app)
        #expect(stored == [others, lockedAfter], "before \(before), locked before \(lockedBefore): \(stored)")
        // Its access-log entry has the number actually deleted, at the time of the call.
        let log = try await healthd.healthctl(["log", "--app", app, "--json"])
        let deletions = log.lines.filter { $0.contains(#""action":"delete""#) }
        #expect(deletions.first?.contains(#""count":2"#) == true, "\(deletions)")
        #expect(deletions.count == 1, "\(log.stdout)")
        expectSuccess(try await healthd.healthctl(["log", "verify"]))
    }

    @Test func aDeletionByPredicateWhileLockedStillNeedsSharePermission() async throws {
        let healthd = try await started()
        try await healthd.set(app, "share", steps, allowed: false)
        expectSuccess(try await healthd.healthctl(["lock"]))
        let deletion = try await healthd.runApp(app, ["delete-matching", steps])
        // errorAuthorizationDenied (4), as when unlocked: the check runs at the call.
        #expect(deletion.okValue == nil && deletion.stdout.hasPrefix("error 4 "), "\(deletion)")
    }

    @Test func aWorkoutItsSamplesAndTheirAssociationMadeWhileLockedAreAllThereAfterUnlock() async throws {
        let healthd = try await started()
        expectSuccess(try await healthd.healthctl(["lock"]))
        let session = try await healthd.runApp(app, ["workout-with-steps", "1700000000", "1700001800", "3"])
        let uuids = session.okValue?.split(separator: " ").map(String.init) ?? []
        #expect(uuids.count == 4, "\(session)")
        expectSuccess(try await healthd.healthctl(["unlock"]))
        guard let workout = uuids.first else { return }
        let associated = try await healthd.runApp(app, ["query-associated", workout, steps])
        #expect(associated.okValue == "3", "\(associated)")
        let found = Set(associated.lines.filter { $0.hasPrefix("sample ") }.map { String($0.split(separator: " ")[1]) })
        #expect(found == Set(uuids.dropFirst()), "\(associated)")
    }

    @Test func backgroundDeliveryEnabledAndDisabledWhileLockedIsRegisteredAfterUnlock() async throws {
        let healthd = try await started(entitlements: ["com.apple.developer.healthkit.background-delivery"])
        expectSuccess(try await healthd.healthctl(["lock"]))
        #expect(try await healthd.runApp(app, ["background-enable", steps, "--frequency", "hourly"]).okValue == "enabled")
        #expect(try await healthd.runApp(other, ["background-enable", steps]).okValue == "enabled")
        #expect(try await healthd.runApp(other, ["background-disable", "--all"]).okValue == "disabled")
        expectSuccess(try await healthd.healthctl(["unlock"]))
        let listing = try await healthd.healthctl(["apps", "background", app])
        #expect(listing.stdout.contains("Step Count") && listing.stdout.contains("hourly"), "\(listing)")
        let none = try await healthd.healthctl(["apps", "background", other])
        #expect(none.lines == ["\(other) has not enabled background delivery."], "\(none)")
    }

    @Test func backgroundDeliveryWhileLockedStillNeedsTheEntitlement() async throws {
        let healthd = try await started()
        expectSuccess(try await healthd.healthctl(["lock"]))
        let refused = try await healthd.runApp(app, ["background-enable", steps])
        #expect(refused.okValue == nil && refused.stdout.contains("com.apple.developer.healthkit.background-delivery"), "\(refused)")
    }

    /// The `route UUID COUNT START END` line of `workout-with-steps --route`.
    private func routeLine(_ result: ProcessResult) -> [String] {
        result.lines.first { $0.hasPrefix("route ") }?.split(separator: " ").map(String.init) ?? []
    }

    @Test func aRouteBuiltWhileLockedIsStoredWithItsWorkoutAsAnswered() async throws {
        let healthd = try await started()
        try await healthd.set(app, "share", "HKWorkoutRouteTypeIdentifier", allowed: true)
        try await healthd.set(app, "read", "HKWorkoutRouteTypeIdentifier", allowed: true)
        expectSuccess(try await healthd.healthctl(["lock"]))
        let session = try await healthd.runApp(app, ["workout-with-steps", "1700000000", "1700001800", "1", "--route", "40"])
        let answered = routeLine(session)
        #expect(answered.count == 5 && answered[2] == "40", "\(session)")
        expectSuccess(try await healthd.healthctl(["unlock"]))
        guard let workout = session.okValue?.split(separator: " ").first.map(String.init), answered.count == 5 else { return }
        let query = try await healthd.runApp(app, ["query-route", workout])
        let stored = query.lines.first { $0.hasPrefix("route ") }?.split(separator: " ").map(String.init) ?? []
        // The route the app was answered with, attached to the workout saved while locked too.
        #expect(query.okValue == "1", "\(query)")
        #expect(Array(stored.prefix(5)) == answered, "answered \(answered), stored \(stored)")
    }

    @Test func killedMidMergeAJournalOfEveryKindIsAppliedExactlyOnce() async throws {
        // The filler journals 80,000 samples, past the 8 MiB an app may journal while locked
        // (StorageBoundEndToEndTests tests that bound): raised here, where the merge must be long.
        let bound = ["--journal-bound-kib", "65536"]
        let healthd = try await started(entitlements: ["com.apple.developer.healthkit.background-delivery"], arguments: bound)
        for access in ["share", "read"] { try await healthd.set(app, access, "HKWorkoutRouteTypeIdentifier", allowed: true) }
        let filler = "org.test.locked-writes-filler"  // this test process, saving fast over a direct connection
        try await SavingApp.install(filler, root: healthd.root) { try await healthd.healthctl($0) }
        expectSuccess(try await healthd.healthctl(["lock"]))

        // One of each kind first: workout, samples, association, route data, finished route, a
        // save and a deletion by predicate that takes it, background delivery, an app switch.
        let session = try await healthd.runApp(app, ["workout-with-steps", "1700000000", "1700001800", "2", "--route", "20"])
        let uuids = session.okValue?.split(separator: " ").map(String.init) ?? []
        #expect(uuids.count == 3 && routeLine(session).count == 5, "\(session)")
        let doomed = try await saveStep(healthd, as: app, at: 1_700_100_000)
        #expect(try await healthd.runApp(app, ["delete-matching", steps, "--start", "1700100000", "--end", "1700100600"]).okValue == "0")
        #expect(try await healthd.runApp(app, ["background-enable", steps]).okValue == "enabled")
        #expect(try await healthd.healthctl(["apps", "allow-network", app]).status == 0)
        // Then enough saves that the merge takes a few seconds even on a quiet machine, where
        // batches of 128 entries merge a thousand entries in well under a second.
        let saver = try LockedStoreApp(socket: healthd.appSocket)
        var saved: [UUID] = []
        for index in 0..<4_000 { saved += try await saver.save(index * 20..<index * 20 + 20, marker: "kinds") }
        saver.close()

        let markers = healthd.mergeMarkers  // before the unlock, which may log its line at once
        let unlock = Task { try await healthd.healthctl(["unlock"]) }
        try await healthd.killOnceMerging(markersBefore: markers)
        let interrupted = try await unlock.value
        try healthd.start(bound)  // merges what the killed merge left

        // Evidence that the kill interrupted the merge: the start merged what it left (the rest
        // of the journal, or all of it when the kill came before the first batch committed).
        let restartMerged = healthd.startupMerged
        #expect(restartMerged.map { $0 > 0 } == true, "merged at restart: \(String(describing: restartMerged))")
        let reader = try LockedStoreApp(socket: healthd.appSocket)
        defer { reader.close() }
        let stored = try await reader.storedUUIDs()
        #expect(stored.count == Set(stored).count, "a sample was stored twice")
        #expect(Set(saved).isSubset(of: Set(stored)), "\(Set(saved).subtracting(stored).count) saves lost")
        #expect(stored.count == saved.count + 2, "the workout's two samples and the filler, nothing else: \(stored.count)")
        #expect(!stored.map(\.uuidString).contains(doomed), "the deletion by predicate was not applied")
        guard uuids.count == 3 else { return }
        let associated = try await healthd.runApp(app, ["query-associated", uuids[0], steps])
        #expect(associated.okValue == "2", "\(associated)")
        let routes = try await healthd.runApp(app, ["query-route", uuids[0]])
        #expect(routes.okValue == "1" && routes.stdout.contains(routeLine(session)[1]), "\(routes)")
        let listing = try await healthd.healthctl(["apps", "background", app])
        #expect(listing.stdout.contains("Step Count"), "\(listing)")
        let apps = try await healthd.healthctl(["apps", "list"])
        #expect(apps.lines.first { $0.contains(app + " ") }?.contains("permitted") == true, "\(apps)")
        #expect(interrupted.status != 0, "the unlock finished before the kill; \(interrupted)")
    }
}
