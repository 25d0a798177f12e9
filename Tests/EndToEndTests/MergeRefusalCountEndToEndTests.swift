import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// A call journaled while the store is locked that only the store can refuse — here a route
/// finished on a workout that already has the most routes a workout may have
/// (`SampleLimits.maximumRoutesPerWorkout`, checked in the merge's transaction) — is answered as
/// saved and changes nothing at the merge (`PendingEffect.apply`). Since session 23 the merge
/// counts it per app and reason (`MergeRefusals`): `healthctl unlock` warns with the count, the
/// app and the reason, and healthd's log says the same. Before, neither said anything.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MergeRefusalCountEndToEndTests {
    static let app = "org.test.merge-refusal"
    static let cap = SampleLimits.maximumRoutesPerWorkout

    static func location(_ second: Int) -> RouteLocation {
        RouteLocation(timestamp: RawRecords.start.addingTimeInterval(Double(second)), latitude: 46.5, longitude: 6.6,
                      altitude: 400, horizontalAccuracy: 5)
    }

    /// One route of one location, finished on `workout`.
    static func addRoute(_ app: RawApp, to workout: UUID, second: Int) async throws {
        let builder = UUID()
        _ = try RouteLocationCount(wire: await app.client.unary(HealthStoreMethod.insertRouteData.rawValue,
                                                                RouteDataChunk(builderID: builder, locations: [location(second)]).wireBytes()))
        _ = try await app.client.unary(HealthStoreMethod.finishRoute.rawValue, RouteFinish(builderID: builder, workoutUUID: workout).wireBytes())
    }

    @Test func aRouteJournaledPastTheCapIsCountedAtTheUnlockAndInTheLog() async throws {
        let broker = try BrokerProcess()
        let grants = [("share", HKWorkoutTypeIdentifier), ("share", HKWorkoutRouteTypeIdentifier),
                      ("read", HKWorkoutTypeIdentifier), ("read", HKWorkoutRouteTypeIdentifier)]
        let app = try await RawApp.install(Self.app, on: broker, grants: grants)
        defer { app.close() }
        let workout = try #require(try await app.save([RawRecords.workout()]).first)
        for index in 0..<Self.cap { try await Self.addRoute(app, to: workout, second: index + 1) }

        let locked = try await broker.healthctl(["lock"])
        #expect(locked.status == 0, "\(locked)")
        let during = try RawApp(client: RPCClient.connect(path: broker.appSocket))
        defer { during.close() }
        // Answered as saved: the cap needs the store, which is locked.
        try await Self.addRoute(during, to: workout, second: 100)

        let unlocked = try await broker.healthctl(["unlock"])
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(unlocked.stdout.hasPrefix("Unlocked: merged "), "\(unlocked)")
        let warnings = unlocked.stderr.split(separator: "\n").filter { $0.contains("refused at the merge") }
        #expect(warnings.count == 1, "\(unlocked)")
        let warning = warnings.first.map(String.init) ?? ""
        #expect(warning.hasPrefix("healthctl: warning: 1 call \(Self.app) made while locked was refused at the merge"), "\(warning)")
        #expect(warning.contains("a workout may have at most \(Self.cap) routes"), "\(warning)")

        let log = broker.log.split(separator: "\n").filter { $0.contains("journaled calls refused at the merge") }
        #expect(log.count == 1, "\(broker.log)")
        #expect(log.first.map { $0.contains(Self.app) && $0.contains("count=1") && $0.contains("at most \(Self.cap) routes") } == true,
                "\(log)")

        // The refused route changed nothing: the workout keeps its routes.
        let after = try RawApp(client: RPCClient.connect(path: broker.appSocket))
        defer { after.close() }
        let routes = try await after.query(SampleQuerySpec(typeIdentifier: HKWorkoutRouteTypeIdentifier))
        #expect(routes.count == Self.cap)

        // A second lock and unlock with nothing refused says nothing of refusals.
        #expect(try await broker.healthctl(["lock"]).status == 0)
        let again = try await broker.healthctl(["unlock"])
        #expect(again.status == 0 && !again.stderr.contains("refused"), "\(again)")
    }
}
