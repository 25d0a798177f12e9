import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// Deletion through the whole stack: an app deletes only what it saved, needs share permission,
/// and deleting someone else's object — visible to it or not — is indistinguishable from
/// deleting one that does not exist. A workout takes its route along, not its samples.
@Suite(.timeLimit(.minutes(10))) struct DeletionEndToEndTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let start = 1_700_000_000

    /// Saves heart rates at `start + offsets` as `app`; returns their UUIDs.
    static func saveHeartRates(_ broker: BrokerProcess, _ app: String, _ offsets: [Int]) async throws -> [String] {
        var uuids: [String] = []
        for offset in offsets {
            let time = "\(start + offset)"
            let saved = try await broker.runApp(app, ["save", heartRate, "\(60 + offset / 60)", "count/min", time, time])
            uuids.append(try #require(saved.okValue, "\(saved)"))
        }
        return uuids
    }

    static func visibleCount(_ broker: BrokerProcess, _ app: String, _ type: String = heartRate) async throws -> String? {
        try await broker.runApp(app, ["query", type]).okValue
    }

    @Test func anAppDeletesItsOwnObjectsAndTheyAreGoneForEveryone() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.deleter")
        let reader = try await broker.installClient("org.test.onlooker")
        for access in ["share", "read"] { try await broker.set(writer, access, Self.heartRate, allowed: true) }
        try await broker.set(reader, "read", Self.heartRate, allowed: true)
        let uuids = try await Self.saveHeartRates(broker, writer, [0, 600, 1200])
        #expect(try await Self.visibleCount(broker, reader) == "3")

        let deleted = try await broker.runApp(writer, ["delete", Self.heartRate, uuids[0]])
        #expect(deleted.okValue == "1", "\(deleted)")
        #expect(try await Self.visibleCount(broker, reader) == "2")
        let matching = try await broker.runApp(writer, ["delete-matching", Self.heartRate, "--start", "\(Self.start + 300)",
                                                        "--end", "\(Self.start + 900)"])
        #expect(matching.okValue == "1", "\(matching)")
        let remaining = try await broker.runApp(reader, ["query", Self.heartRate])
        #expect(remaining.lines.filter { $0.hasPrefix("sample ") }.map { String($0.split(separator: " ")[1]) } == [uuids[2]])
        #expect(try await broker.runApp(writer, ["delete-matching", Self.heartRate, "--start", "0"]).okValue == "1")
        #expect(try await broker.runApp(writer, ["delete-matching", Self.heartRate, "--start", "0"]).okValue == "0")
    }

    @Test func deletingAnotherAppsObjectIsLikeDeletingOneThatDoesNotExist() async throws {
        let broker = try BrokerProcess()
        let owner = try await broker.installClient("org.test.owner")
        let other = try await broker.installClient("org.test.intruder")
        try await broker.set(owner, "share", Self.heartRate, allowed: true)
        for access in ["share", "read"] { try await broker.set(other, access, Self.heartRate, allowed: true) }
        let theirs = try await Self.saveHeartRates(broker, owner, [0])
        let mine = try await Self.saveHeartRates(broker, other, [60])

        // Through the SDK: another app's sample, fetched because this app may read it…
        let foreign = try await broker.runApp(other, ["delete", Self.heartRate, theirs[0]])
        // …fails exactly like deleting the app's own sample a second time, once it is gone.
        let gone = try await broker.runApp(other, ["delete", Self.heartRate, mine[0], "--twice"])
        #expect(foreign.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(foreign)")
        #expect(foreign.stdout == gone.stdout, "\(foreign)\n\(gone)")
        #expect(foreign.stdout.contains("failed to find some objects for deletion"))
        // Matching deletes and counts only the app's own objects, even with read permission.
        #expect(try await broker.runApp(other, ["delete-matching", Self.heartRate]).okValue == "0")
        #expect(try await Self.visibleCount(broker, other) == "1")

        // Speaking the protocol: a UUID the app cannot see at all, and one nobody has.
        try await broker.set(other, "read", Self.heartRate, allowed: false)
        let app = try await RawApp.install("org.test.rawdeleter", on: broker, grants: [("share", Self.heartRate)])
        defer { app.close() }
        let hidden = await app.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: Self.heartRate,
                                                                                       uuid: UUID(uuidString: theirs[0])!)]))
        let missing = await app.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: Self.heartRate, uuid: UUID())]))
        #expect(hidden?.healthKitCode == .errorInvalidArgument)
        #expect(hidden?.message == missing?.message)
        // The owner's sample survived all of it (the intruder's own one was deleted above).
        try await broker.set(owner, "read", Self.heartRate, allowed: true)
        let survivors = try await broker.runApp(owner, ["query", Self.heartRate])
        #expect(survivors.lines.filter { $0.hasPrefix("sample ") }.map { String($0.split(separator: " ")[1]) } == theirs)
    }

    @Test func deletionNeedsSharePermission() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.noshare")
        let notDetermined = try await broker.runApp(app, ["delete-matching", Self.heartRate])
        #expect(notDetermined.errorCode == HKError.Code.errorAuthorizationNotDetermined.rawValue, "\(notDetermined)")
        try await broker.set(app, "share", Self.heartRate, allowed: false)
        let denied = try await broker.runApp(app, ["delete-matching", Self.heartRate])
        #expect(denied.errorCode == HKError.Code.errorAuthorizationDenied.rawValue, "\(denied)")
    }

    @Test func deletingAWorkoutDeletesItsRouteButNotItsSamples() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.cleanup")
        for type in [HKWorkoutTypeIdentifier, HKWorkoutRouteTypeIdentifier, Self.heartRate] {
            for access in ["share", "read"] { try await broker.set(app, access, type, allowed: true) }
        }
        let saved = try await broker.runApp(app, ["save-workout", "37", "\(Self.start)", "\(Self.start + 3600)"])
        let workout = try #require(saved.okValue, "\(saved)")
        let samples = try await Self.saveHeartRates(broker, app, [60])
        #expect(try await broker.runApp(app, ["add-to-workout", workout, Self.heartRate, samples[0]]).okValue == "1")
        #expect(try await broker.runApp(app, ["save-route", workout, "50"]).okValue != nil)
        #expect(try await Self.visibleCount(broker, app, HKWorkoutRouteTypeIdentifier) == "1")

        let deleted = try await broker.runApp(app, ["delete", HKWorkoutTypeIdentifier, workout])
        #expect(deleted.okValue == "1", "\(deleted)")
        #expect(try await Self.visibleCount(broker, app, HKWorkoutTypeIdentifier) == "0")
        #expect(try await Self.visibleCount(broker, app, HKWorkoutRouteTypeIdentifier) == "0")
        #expect(try await Self.visibleCount(broker, app) == "1")
    }
}
