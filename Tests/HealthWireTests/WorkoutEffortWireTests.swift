import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// The workout effort messages (workout_effort.proto) and predicate node 33 survive encoding and
/// decoding exactly; the decoder refuses UUIDs of any length but 16 (an absent activity is
/// empty) and bounds the relations and their samples before converting them.
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortWireTests {
    /// A message of length-delimited fields, written by hand (tag, length, bytes).
    static func fields(_ values: [(field: UInt8, bytes: [UInt8])]) -> [UInt8] {
        values.flatMap { [($0.field << 3) | 2, UInt8($0.bytes.count)] + $0.bytes }
    }

    @Test func aRelationChangeRoundTripsWithAndWithoutAnActivity() throws {
        for activity in [nil, UUID()] {
            let change = WorkoutEffortRelationChange(sampleUUID: UUID(), workoutUUID: UUID(), activityUUID: activity)
            #expect(try WorkoutEffortRelationChange(wire: change.wireBytes()) == change)
        }
    }

    @Test func aUUIDOfAnyOtherLengthIsRefusedNamingItsField() throws {
        let uuid = Array(UUID().bytes)
        let valid = Self.fields([(1, uuid), (2, uuid)])
        #expect(try WorkoutEffortRelationChange(wire: valid).activityUUID == nil)
        for (bytes, field) in [(Self.fields([(1, uuid), (2, uuid), (3, Array(uuid.dropLast()))]), "activity uuid"),
                               (Self.fields([(1, uuid), (2, uuid + [0])]), "workout uuid"),
                               (Self.fields([(1, []), (2, uuid)]), "sample uuid")] {
            #expect(throws: WireDecodeError.invalidField("\(field) must be 16 bytes")) { try WorkoutEffortRelationChange(wire: bytes) }
        }
    }

    @Test func thePredicateNodeRoundTripsAloneAndInsideACompound() throws {
        let workout = UUID(), activity = UUID()
        for predicate: SamplePredicate in [.workoutEffort(workout: workout, activity: nil), .workoutEffort(workout: workout, activity: activity),
                                           .not(.and([.workoutEffort(workout: workout, activity: activity), .uuids([workout])]))] {
            let query = WorkoutEffortQuery(predicate: predicate, mostRelevant: true)
            #expect(try WorkoutEffortQuery(wire: query.wireBytes()) == query)
            let spec = SampleQuerySpec(typeIdentifier: HKQuantityTypeIdentifier.workoutEffortScore.rawValue, predicate: predicate)
            #expect(try SampleQuerySpec(wire: spec.wireBytes()).predicate == predicate)
        }
    }

    @Test func relationsAndTheirSamplesAreBoundedBeforeConversion() throws {
        let relation = { (samples: Int) in WorkoutEffortRelation(workoutUUID: UUID(), activityUUID: nil, sampleUUIDs: (0..<samples).map { _ in UUID() }) }
        let atLimit = WorkoutEffortRelations([relation(WireLimits.maxObjectsPerCall / 2), relation(WireLimits.maxObjectsPerCall / 2)])
        #expect(try WorkoutEffortRelations(wire: atLimit.wireBytes()) == atLimit)
        let tooManySamples = WorkoutEffortRelations([relation(WireLimits.maxObjectsPerCall / 2), relation(WireLimits.maxObjectsPerCall / 2 + 1)])
        #expect(throws: WireDecodeError.self) { try WorkoutEffortRelations(wire: tooManySamples.wireBytes()) }
        let tooManyRelations = WorkoutEffortRelations((0...WireLimits.maxObjectsPerCall).map { _ in relation(0) })
        #expect(throws: WireDecodeError.self) { try WorkoutEffortRelations(wire: tooManyRelations.wireBytes()) }
    }
}
