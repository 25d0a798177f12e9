import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// Workouts through the whole stack: saved by one sandboxed app with the SDK, read back by
/// another; validation by the SDK and, without it, by the broker; read scopes; associations.
@Suite(.timeLimit(.minutes(10))) struct WorkoutEndToEndTests {
    static let workout = HKWorkoutTypeIdentifier
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let start = 1_700_000_000

    /// `save-workout` arguments: a run from `start` lasting an hour.
    static func run(_ options: [String] = [], at start: Int = start, activity: HKWorkoutActivityType = .running) -> [String] {
        ["save-workout", "\(activity.rawValue)", "\(start)", "\(start + 3600)"] + options
    }

    static func event(_ type: HKWorkoutEventType, _ offset: Int, _ duration: Int = 0) -> [String] {
        ["--event", "\(type.rawValue):\(start + offset):\(start + offset + duration)"]
    }

    @Test func aWorkoutSavedByOneAppIsReadBackIdenticallyByAnotherWithReadPermission() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.runner")
        let reader = try await broker.installClient("org.test.coach")
        try await broker.set(writer, "share", Self.workout, allowed: true)
        try await broker.set(writer, "read", Self.workout, allowed: true)
        // A run's energy and distance are read with their own types' permission (WorkoutValueScopes).
        for type in [Self.workout, "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierDistanceWalkingRunning"] {
            try await broker.set(reader, "read", type, allowed: true)
        }
        let options = Self.event(.lap, 0, 1200) + Self.event(.pause, 600) + Self.event(.resume, 900) + Self.event(.marker, 1500)
            + ["--energy", "1464.4:kJ", "--distance", "5:km", "--device", "Watch",
               "--meta", "\(HKMetadataKeyIndoorWorkout)=bool:false", "--meta", "org.test.route=string:lake"]
        let saved = try await broker.runApp(writer, Self.run(options))
        let uuid = try #require(saved.okValue, "\(saved)")

        let own = try await broker.runApp(writer, ["query-workouts"])
        let other = try await broker.runApp(reader, ["query-workouts"])
        let line = try #require(own.lines.first { $0.hasPrefix("workout ") }, "\(own)")
        #expect(other.lines.first { $0.hasPrefix("workout ") } == line, "\(other)")
        let fields = line.split(separator: " ").map(String.init)
        #expect(fields[1] == uuid)
        #expect(fields[4] == "\(HKWorkoutActivityType.running.rawValue)")
        #expect(Double(fields[5]) == 3300)  // an hour minus the 5-minute pause
        #expect(abs(Double(fields[6])! - 350) < 1e-9)  // 1464.4 kJ in kcal
        #expect(Double(fields[7]) == 5000)
        #expect(fields[8].split(separator: ",").map { $0.prefix(while: { $0 != "@" }) } == ["3", "1", "2", "4"])
        #expect(fields[9] == writer)
        #expect(fields[10] == "1.0")
        #expect(fields[11] == "Watch/Test/T1/2.0")
        #expect(fields[12] == "\(HKMetadataKeyIndoorWorkout)=0;org.test.route=lake")
    }

    @Test func invalidWorkoutsFromTheSDKAreRejectedWithWhatIsWrong() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.badrun")
        for access in ["share", "read"] { try await broker.set(app, access, Self.workout, allowed: true) }
        let attempts: [([String], String)] = [
            (Self.run(Self.event(.marker, 4000)), "inside the workout"),
            (Self.run(Self.event(.resume, 100)), "not paused"),
            (Self.run(Self.event(.pause, 100) + Self.event(.pause, 200)), "already paused"),
            (Self.run(Self.event(.marker, 100, 60)), "only lap and segment"),
            (Self.run(Self.event(.lap, 500) + Self.event(.marker, 100)), "chronological"),
            (Self.run(["--energy", "3:km"]), "totalEnergyBurned"),
            (Self.run(["--distance", "-1:m"]), "totalDistance"),
            (Self.run(["--duration", "4000"]), "duration"),
        ]
        for (arguments, expected) in attempts {
            let result = try await broker.runApp(app, arguments)
            #expect(result.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(arguments): \(result)")
            #expect(result.stdout.contains(expected), "\(arguments): \(result)")
        }
        #expect(try await broker.runApp(app, ["query-workouts"]).okValue == "0")
    }

    @Test func theBrokerValidatesWorkoutsWithoutTheSDK() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install("org.test.rawrun", on: broker, grants: [
            ("share", Self.workout), ("read", Self.workout), ("share", HKWorkoutRouteTypeIdentifier),
        ])
        defer { app.close() }
        let at = { (offset: TimeInterval) in RawRecords.start.addingTimeInterval(offset) }
        let invalid: [(String, SampleRecord)] = [
            ("unknown activity", RawRecords.workout(activity: 9999)),
            ("unknown event type", RawRecords.workout(events: [WorkoutEventRecord(type: 99, startDate: at(10), endDate: at(10))])),
            ("event before the workout", RawRecords.workout(events: [WorkoutEventRecord(type: 4, startDate: at(-10), endDate: at(-10))])),
            ("resume first", RawRecords.workout(events: [WorkoutEventRecord(type: 2, startDate: at(10), endDate: at(10))])),
            ("negative duration", RawRecords.workout(duration: -1)),
            ("a route through save", SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutRouteTypeIdentifier, startDate: at(0),
                                                  endDate: at(1), value: .workoutRoute(locationCount: 1))),
        ]
        for (what, record) in invalid {
            let status = await app.failure(.save, SampleList([record]))
            #expect(status?.healthKitCode == .errorInvalidArgument, "\(what): \(String(describing: status))")
        }
        #expect(try await app.query(SampleQuerySpec(typeIdentifier: Self.workout)).isEmpty)
    }

    @Test func aReaderWithoutPermissionSeesOnlyItsOwnWorkouts() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.cyclist")
        let reader = try await broker.installClient("org.test.walker")
        for app in [writer, reader] { try await broker.set(app, "share", Self.workout, allowed: true) }
        try await broker.set(reader, "read", Self.workout, allowed: false)
        _ = try #require(try await broker.runApp(writer, Self.run(activity: .cycling)).okValue)
        let own = try #require(try await broker.runApp(reader, Self.run(at: Self.start + 7200, activity: .walking)).okValue)
        let seen = try await broker.runApp(reader, ["query-workouts"])
        #expect(seen.lines.filter { $0.hasPrefix("workout ") }.map { $0.split(separator: " ")[1] } == [Substring(own)], "\(seen)")
        let cycling = try await broker.runApp(reader, ["query-workouts", "--activity", "\(HKWorkoutActivityType.cycling.rawValue)"])
        #expect(cycling.okValue == "0", "\(cycling)")
    }

    @Test func samplesAddedToAWorkoutAreFoundThroughIt() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.tracker")
        let reader = try await broker.installClient("org.test.viewer")
        for type in [Self.workout, Self.heartRate] {
            try await broker.set(writer, "share", type, allowed: true)
            try await broker.set(writer, "read", type, allowed: true)
            try await broker.set(reader, "read", type, allowed: true)
        }
        let workout = try #require(try await broker.runApp(writer, Self.run()).okValue)
        var samples: [String] = []
        for (value, offset) in [(120, 60), (130, 120), (90, 7200)] {
            let saved = try await broker.runApp(writer, ["save", Self.heartRate, "\(value)", "count/min", "\(Self.start + offset)", "\(Self.start + offset)"])
            samples.append(try #require(saved.okValue, "\(saved)"))
        }
        let added = try await broker.runApp(writer, ["add-to-workout", workout, Self.heartRate, samples[0], samples[1]])
        #expect(added.okValue == "2", "\(added)")
        for app in [writer, reader] {
            let associated = try await broker.runApp(app, ["query-associated", workout, Self.heartRate])
            #expect(Set(associated.lines.filter { $0.hasPrefix("sample ") }.map { String($0.split(separator: " ")[1]) })
                    == Set(samples.prefix(2)), "\(associated)")
        }
    }

    @Test func onlyAnAppsOwnObjectsCanBeAssociatedAndOthersLookMissing() async throws {
        let broker = try BrokerProcess()
        let other = try await broker.installClient("org.test.otherapp")
        for type in [Self.workout, Self.heartRate] {
            try await broker.set(other, "share", type, allowed: true)
            try await broker.set(other, "read", type, allowed: true)
        }
        let theirWorkout = try #require(UUID(uuidString: try await broker.runApp(other, Self.run()).okValue ?? ""))
        let saved = try await broker.runApp(other, ["save", Self.heartRate, "100", "count/min", "\(Self.start)", "\(Self.start)"])
        let theirSample = try #require(UUID(uuidString: saved.okValue ?? ""), "\(saved)")
        let app = try await RawApp.install("org.test.associator", on: broker, grants: [
            ("share", Self.workout), ("share", Self.heartRate), ("read", Self.workout), ("read", Self.heartRate),
        ])
        defer { app.close() }
        let mine = try await app.save([RawRecords.workout(), RawRecords.heartRate(110)])

        // Another app's sample (visible to this reader) and a UUID nobody has fail alike.
        let foreignSample = await app.failure(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: mine[0], sampleUUIDs: [theirSample]))
        let missingSample = await app.failure(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: mine[0], sampleUUIDs: [UUID()]))
        #expect(foreignSample?.healthKitCode == .errorInvalidArgument)
        #expect(foreignSample?.message == missingSample?.message)
        let foreignWorkout = await app.failure(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: theirWorkout, sampleUUIDs: [mine[1]]))
        let missingWorkout = await app.failure(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: UUID(), sampleUUIDs: [mine[1]]))
        #expect(foreignWorkout?.healthKitCode == .errorInvalidArgument)
        #expect(foreignWorkout?.message == missingWorkout?.message)
        #expect(await app.failure(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: mine[0], sampleUUIDs: [mine[1]])) == nil)

        // The other app's own association is visible to a reader of both types…
        let added = try await broker.runApp(other, ["add-to-workout", theirWorkout.uuidString, Self.heartRate, theirSample.uuidString])
        #expect(added.okValue == "1", "\(added)")
        let byTheirWorkout = SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: .workout(theirWorkout))
        #expect(try await app.query(byTheirWorkout).map(\.uuid) == [theirSample])
        // …but not to one that may read heart rates and not workouts: that workout does not exist for it.
        try await broker.set("org.test.associator", "read", Self.workout, allowed: false)
        #expect(try await app.query(byTheirWorkout).isEmpty)
    }
}
