import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// The workout, route and deletion payloads survive encoding and decoding exactly, and the
/// decoders refuse what the protocol does not allow.
@Suite(.timeLimit(.minutes(10))) struct WorkoutMessagesTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aWorkoutSampleAndItsPredicatesRoundTrip() throws {
        let workout = WorkoutValue(activityType: 37, duration: 3300, totalEnergyBurned: RecordedQuantity(350, unit: "kcal"),
                                   totalDistance: nil, events: [
                                       WorkoutEventRecord(type: 1, startDate: Self.start.addingTimeInterval(600),
                                                          endDate: Self.start.addingTimeInterval(600), metadata: ["k": .bool(true)]),
                                   ])
        let records = [
            SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: Self.start,
                         endDate: Self.start.addingTimeInterval(3600), value: .workout(workout)),
            SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutRouteTypeIdentifier, startDate: Self.start,
                         endDate: Self.start, value: .workoutRoute(locationCount: 30_000)),
        ]
        #expect(try SampleList(wire: SampleList(records).wireBytes()) == SampleList(records))
        let spec = SampleQuerySpec(typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue,
                                   predicate: .and([.workout(UUID()), .not(.workoutActivityType(13))]))
        #expect(try SampleQuerySpec(wire: spec.wireBytes()) == spec)
    }

    @Test func routeAndDeletionPayloadsRoundTrip() throws {
        let location = RouteLocation(timestamp: Self.start, latitude: -33.9, longitude: 151.2, altitude: 12, horizontalAccuracy: 4,
                                     verticalAccuracy: -1, course: 271.5, speed: 3.25)
        let chunk = RouteDataChunk(builderID: UUID(), locations: Array(repeating: location, count: 3))
        #expect(try RouteDataChunk(wire: chunk.wireBytes()) == chunk)
        let finish = RouteFinish(builderID: UUID(), workoutUUID: UUID(), metadata: ["m": .number(1)], device: DeviceRecord(name: "Phone"))
        #expect(try RouteFinish(wire: finish.wireBytes()) == finish)
        let batch = RouteLocationBatch([location], done: true)
        #expect(try RouteLocationBatch(wire: batch.wireBytes()) == batch)
        let deletion = ObjectDeletion([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: UUID())])
        #expect(try ObjectDeletion(wire: deletion.wireBytes()) == deletion)
        let matching = MatchingDeletion(typeIdentifier: HKWorkoutTypeIdentifier, predicate: .workoutActivityType(37))
        #expect(try MatchingDeletion(wire: matching.wireBytes()) == matching)
        #expect(try DeletedCount(wire: DeletedCount(7).wireBytes()) == DeletedCount(7))
    }

    @Test func aChunkOverTheLocationLimitAndShortUUIDsAreRefused() {
        let location = RouteLocation(timestamp: Self.start, latitude: 0, longitude: 0)
        let oversized = RouteDataChunk(builderID: UUID(), locations: Array(repeating: location, count: WireLimits.maxLocationsPerMessage + 1))
        #expect(throws: WireDecodeError.self) { try RouteDataChunk(wire: oversized.wireBytes()) }
        // A RouteDataRequest whose route_uuid (field 1, bytes) holds 3 bytes.
        #expect(throws: WireDecodeError.self) { try RouteDataQuery(wire: [0x0A, 0x03, 1, 2, 3]) }
    }
}
