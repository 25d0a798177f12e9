import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// Workout routes through the whole stack: built with `HKWorkoutRouteBuilder` in one sandboxed
/// app, uploaded in chunks, read back with `HKWorkoutRouteQuery` by another; validation; scopes.
@Suite(.timeLimit(.minutes(10))) struct WorkoutRouteEndToEndTests {
    static let workout = HKWorkoutTypeIdentifier
    static let route = HKWorkoutRouteTypeIdentifier
    static let start = 1_700_000_000

    /// Installs the scripted app as `appID` with `access` granted for workouts and routes.
    static func install(_ broker: BrokerProcess, _ appID: String, _ access: [String]) async throws -> String {
        let app = try await broker.installClient(appID)
        for kind in access {
            for type in [workout, route] { try await broker.set(app, kind, type, allowed: true) }
        }
        return app
    }

    /// Saves an hour-long run as `app` and returns its UUID.
    static func saveWorkout(_ broker: BrokerProcess, _ app: String) async throws -> String {
        let saved = try await broker.runApp(app, ["save-workout", "37", "\(start)", "\(start + 3600)"])
        return try #require(saved.okValue, "\(saved)")
    }

    @Test func aLongRouteIsUploadedInChunksAndReadBackIdenticallyByAnotherApp() async throws {
        let broker = try BrokerProcess()
        let writer = try await Self.install(broker, "org.test.gps", ["share", "read"])
        let reader = try await Self.install(broker, "org.test.map", ["read"])
        let workout = try await Self.saveWorkout(broker, writer)
        // 30,000 locations, 0.1 s apart: more than one InsertRouteData call may carry.
        let saved = try await broker.runApp(writer, ["save-route", workout, "30000", "--offset", "60",
                                                     "--meta", "\(HKMetadataKeyWasUserEntered)=bool:false"], timeout: 120)
        let inserted = try #require(saved.lines.first { $0.hasPrefix("digest ") }, "\(saved)")
        let routeUUID = try #require(saved.okValue?.split(separator: " ").first.map(String.init), "\(saved)")
        #expect(saved.okValue?.hasSuffix(" 30000") == true)

        let own = try await broker.runApp(writer, ["query-route", workout], timeout: 120)
        let other = try await broker.runApp(reader, ["query-route", workout], timeout: 120)
        let otherAsync = try await broker.runApp(reader, ["query-route", workout, "--async"], timeout: 120)
        for result in [own, other, otherAsync] {
            #expect(result.okValue == "1", "\(result)")
            #expect(result.lines.contains(inserted), "\(result)")
        }
        #expect(own.lines.contains("batches 15"))  // 2,000 locations per streamed batch
        let routeLine = try #require(own.lines.first { $0.hasPrefix("route ") })
        #expect(other.lines.first { $0.hasPrefix("route ") } == routeLine)
        #expect(routeLine == "route \(routeUUID) 30000 \(Double(Self.start + 60)) \(Double(Self.start + 60) + 2999.9) "
                + "\(writer) Phone/P2/3.1 \(HKMetadataKeyWasUserEntered)=0")
    }

    @Test func invalidRoutesAreRejectedWithWhatIsWrong() async throws {
        let broker = try BrokerProcess()
        let app = try await Self.install(broker, "org.test.badgps", ["share", "read"])
        let workout = try await Self.saveWorkout(broker, app)
        let attempts: [([String], Int, String)] = [
            (["insert-route", "91", "6.6", "\(Self.start)"], HKError.Code.errorInvalidArgument.rawValue, "latitude"),
            (["insert-route", "46.5", "-181", "\(Self.start)"], HKError.Code.errorInvalidArgument.rawValue, "longitude"),
            (["save-route", workout, "10", "--offset", "-5"], HKError.Code.errorInvalidArgument.rawValue, "inside the workout"),
            (["save-route", workout, "10", "--offset", "3599", "--step", "1"], HKError.Code.errorInvalidArgument.rawValue, "inside the workout"),
            (["save-route", workout, "0"], HKError.Code.errorInvalidArgument.rawValue, "holds no locations"),
        ]
        for (arguments, code, expected) in attempts {
            let result = try await broker.runApp(app, arguments)
            #expect(result.errorCode == code, "\(arguments): \(result)")
            #expect(result.stdout.contains(expected), "\(arguments): \(result)")
        }
        #expect(try await broker.runApp(app, ["query-route", workout]).okValue == "0")

        let unauthorized = try await broker.installClient("org.test.noroute")
        try await broker.set(unauthorized, "share", Self.workout, allowed: true)
        let ownWorkout = try await Self.saveWorkout(broker, unauthorized)
        let refused = try await broker.runApp(unauthorized, ["save-route", ownWorkout, "10"])
        #expect(refused.errorCode == HKError.Code.errorAuthorizationNotDetermined.rawValue, "\(refused)")
    }

    @Test func anAppWithoutReadPermissionSeesOnlyItsOwnRoutesAndOthersLookMissing() async throws {
        let broker = try BrokerProcess()
        let writer = try await Self.install(broker, "org.test.runner2", ["share", "read"])
        let workout = try await Self.saveWorkout(broker, writer)
        let saved = try await broker.runApp(writer, ["save-route", workout, "100"])
        let theirRoute = try #require(saved.okValue?.split(separator: " ").first.flatMap { UUID(uuidString: String($0)) }, "\(saved)")

        // A reader of workouts that may not read routes finds the workout but no route.
        let reader = try await broker.installClient("org.test.noroutes")
        try await broker.set(reader, "read", Self.workout, allowed: true)
        try await broker.set(reader, "read", Self.route, allowed: false)
        #expect(try await broker.runApp(reader, ["query-route", workout]).okValue == "0")

        // Speaking the protocol: another app's route, and another app's workout, look missing.
        let app = try await RawApp.install("org.test.routeprobe", on: broker, grants: [
            ("share", Self.workout), ("share", Self.route), ("read", Self.workout),
        ])
        defer { app.close() }
        let foreignRoute = await streamFailure(app, RouteDataQuery(routeUUID: theirRoute))
        let missingRoute = await streamFailure(app, RouteDataQuery(routeUUID: UUID()))
        #expect(foreignRoute?.healthKitCode == .errorNoData, "\(String(describing: foreignRoute))")
        #expect(foreignRoute?.message == missingRoute?.message)

        let builder = UUID()
        let location = RouteLocation(timestamp: RawRecords.start.addingTimeInterval(10), latitude: 46.5, longitude: 6.6, horizontalAccuracy: 5)
        #expect(await app.failure(.insertRouteData, RouteDataChunk(builderID: builder, locations: [location])) == nil)
        let foreignWorkout = await app.failure(.finishRoute, RouteFinish(builderID: builder, workoutUUID: UUID(uuidString: workout)!))
        let missingWorkout = await app.failure(.finishRoute, RouteFinish(builderID: builder, workoutUUID: UUID()))
        #expect(foreignWorkout?.healthKitCode == .errorInvalidArgument)
        #expect(foreignWorkout?.message == missingWorkout?.message)
        // The same builder still finishes with the app's own workout.
        let mine = try await app.save([RawRecords.workout()])[0]
        #expect(await app.failure(.finishRoute, RouteFinish(builderID: builder, workoutUUID: mine)) == nil)
    }

    /// The status a QueryRouteData stream ended with, or nil when it completed.
    private func streamFailure(_ app: RawApp, _ query: RouteDataQuery) async -> RPCStatus? {
        do {
            for try await _ in app.client.serverStream(HealthStoreMethod.queryRouteData.rawValue, query.wireBytes()) {}
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }
}
