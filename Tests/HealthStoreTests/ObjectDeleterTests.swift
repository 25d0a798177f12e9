import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Every way an object leaves the store goes through `ObjectDeleter`: the object and its side
/// rows go, and `deleted_objects` records it with its sync identity and time span.
@Suite(.timeLimit(.minutes(10))) struct ObjectDeleterTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let source = SourceRecord(bundleIdentifier: "org.example.runner", name: "Runner", version: "1")

    static func database() throws -> HealthDatabase { try HealthDatabase(writer: DatabaseQueue()) }

    static func workout(sync version: Double? = nil) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(3600),
                     value: .workout(WorkoutValue(activityType: 37, duration: 3600, events: [
                         WorkoutEventRecord(type: HKWorkoutEventType.marker.rawValue, startDate: start, endDate: start),
                     ])),
                     metadata: version.map { [HKMetadataKeySyncIdentifier: .string("run"), HKMetadataKeySyncVersion: .number($0)] } ?? [:])
    }

    static func heartRate(minute: Int) -> SampleRecord {
        let date = start.addingTimeInterval(Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue, startDate: date,
                            endDate: date.addingTimeInterval(1), value: .quantity(100, unit: "count/min"))
    }

    static func count(_ database: HealthDatabase, _ table: String) throws -> Int {
        try database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)")! }
    }

    static func deletedSpans(_ database: HealthDatabase) throws -> [UUID: (Int64?, Int64?)] {
        try database.writer.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT uuid, start_us, end_us FROM deleted_objects").map {
                ($0["uuid"] as UUID, ($0["start_us"] as Int64?, $0["end_us"] as Int64?))
            })
        }
    }

    @Test func deletingAWorkoutRecordsItAndItsRouteAndDropsTheirSideRows() async throws {
        let database = try Self.database()
        let repository = database.samples
        let saved = try await repository.insert([Self.workout(), Self.heartRate(minute: 1)], source: Self.source)
        try await repository.associate([saved[1]], with: saved[0], appID: Self.source.bundleIdentifier)
        let builder = UUID()
        _ = try await repository.insertRouteData([RouteLocation(timestamp: Self.start.addingTimeInterval(5), latitude: 1, longitude: 2)],
                                                 builderID: builder, source: Self.source)
        let route = try await repository.finishRoute(builderID: builder, workoutUUID: saved[0], metadata: [:], device: nil, source: Self.source)
        #expect(route.value == .workoutRoute(locationCount: 1))

        let deleted = try await repository.delete([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: saved[0])],
                                                  appID: Self.source.bundleIdentifier)
        #expect(deleted == 1)
        let spans = try Self.deletedSpans(database)
        #expect(Set(spans.keys) == [saved[0], route.uuid])
        #expect(spans[saved[0]]?.0 == Self.start.microsecondsSince1970)
        #expect(spans[saved[0]]?.1 == Self.start.addingTimeInterval(3600).microsecondsSince1970)
        #expect(spans[route.uuid]?.0 == Self.start.addingTimeInterval(5).microsecondsSince1970)
        for table in ["workouts", "workout_events", "workout_associations", "route_locations", "route_drafts"] {
            #expect(try Self.count(database, table) == 0, "\(table)")
        }
        #expect(try Self.count(database, "objects") == 1)  // the heart rate stays
    }

    @Test func aSyncReplacementAndAMatchingDeleteRecordTheSpanToo() async throws {
        let database = try Self.database()
        let repository = database.samples
        let first = try await repository.insert([Self.workout(sync: 1)], source: Self.source)
        _ = try await repository.insert([Self.workout(sync: 2)], source: Self.source)
        #expect(try Self.count(database, "workouts") == 1)  // the replaced workout's row went with it
        let heartRates = try await repository.insert([Self.heartRate(minute: 1), Self.heartRate(minute: 2)], source: Self.source)
        let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other")
        _ = try await repository.insert([Self.heartRate(minute: 1)], source: other)

        let count = try await repository.deleteMatching(typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue,
                                                        predicate: nil, appID: Self.source.bundleIdentifier, workouts: .allSources)
        #expect(count == 2)  // never the other source's
        let spans = try Self.deletedSpans(database)
        #expect(Set(spans.keys) == Set([first[0]] + heartRates))
        #expect(spans.values.allSatisfy { $0.0 != nil && $0.1 != nil })
        #expect(try Self.count(database, "objects") == 2)
    }

    @Test func deletingAnotherSourcesObjectFailsLikeAMissingOneAndDeletesNothing() async throws {
        let database = try Self.database()
        let repository = database.samples
        let mine = try await repository.insert([Self.heartRate(minute: 1)], source: Self.source)
        let theirs = try await repository.insert([Self.heartRate(minute: 2)],
                                                 source: SourceRecord(bundleIdentifier: "org.example.other", name: "Other"))
        let type = HKQuantityTypeIdentifier.heartRate.rawValue
        var messages: [String] = []
        for uuid in [theirs[0], UUID()] {
            do {
                _ = try await repository.delete([ObjectReference(typeIdentifier: type, uuid: mine[0]),
                                                 ObjectReference(typeIdentifier: type, uuid: uuid)], appID: Self.source.bundleIdentifier)
                Issue.record("deleted a reference that is not the app's")
            } catch let error as HKError {
                #expect(error.code == .errorInvalidArgument)
                messages.append(error.message)
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1])
        #expect(try Self.count(database, "objects") == 2)
        #expect(try Self.count(database, "deleted_objects") == 0)
    }
}
