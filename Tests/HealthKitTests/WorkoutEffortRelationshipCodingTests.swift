import Foundation
import Testing
@testable import HealthKit

/// Apple's `HKWorkoutEffortRelationship` is an `NSObject` conforming to `NSSecureCoding`
/// (developer.apple.com/documentation/healthkit/hkworkouteffortrelationship lists `init(coder:)`;
/// HKWorkoutEffortRelationshipQuery.h declares `NSObject<NSSecureCoding, NSCopying>`): an app
/// caches the relationships a query handed it with `NSKeyedArchiver` and reads them back with
/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`. Issue 15.
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortRelationshipCodingTests {
    static let start = Date(timeIntervalSinceReferenceDate: 790_000_000)

    static func workout() -> HKWorkout {
        HKWorkout(activityType: .running, start: start, end: start.addingTimeInterval(1800))
    }

    static func score(_ value: Double, _ identifier: HKQuantityTypeIdentifier = .workoutEffortScore) -> HKQuantitySample {
        HKQuantitySample(type: HKQuantityType(identifier), quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: value),
                         start: start.addingTimeInterval(1800), end: start.addingTimeInterval(1800))
    }

    /// No samples (nil), none left (empty), one, and one of each effort type with extreme scores.
    @Test(arguments: [nil, [], [7.0], [0.0, 10.0]] as [[Double]?])
    func aRelationshipKeepsItsWorkoutAndSamples(_ values: [Double]?) throws {
        let samples = values.map { values in
            values.enumerated().map { Self.score($0.element, $0.offset == 0 ? .workoutEffortScore : .estimatedWorkoutEffortScore) }
        }
        let relationship = HKWorkoutEffortRelationship(workout: Self.workout(), activity: nil, samples: samples)
        let restored = try SecureArchive.roundTrip(relationship)
        #expect(restored.workout == relationship.workout && restored.workout.workoutActivityType == .running)
        #expect(restored.workout.duration == 1800)
        #expect(restored.activity == nil)
        #expect(restored.samples?.map(\.uuid) == samples?.map(\.uuid))
        #expect(restored.samples?.map { ($0 as? HKQuantitySample)?.quantity.doubleValue(for: .appleEffortScore()) } == values)
        #expect(restored.samples?.map(\.sampleType) == samples?.map(\.sampleType))
    }

    @Test func aTamperedArchiveIsNoRelationship() throws {
        let relationship = HKWorkoutEffortRelationship(workout: Self.workout(), activity: nil, samples: [Self.score(6)])
        #expect(try SecureArchive.tampered(relationship, "workout", nil) == nil)
        // Fields that are not the archive of the object they name.
        let sampleArchive = try #require(FieldRecorder.fields(of: relationship)["samples.0"])
        guard case let .object(sampleData) = sampleArchive else { Issue.record("the sample is not archived as data"); return }
        #expect(try SecureArchive.tampered(relationship, "workout", sampleData) == nil, "a quantity sample is no workout")
        #expect(try SecureArchive.tampered(relationship, "workout", NSData(bytes: [1, 2, 3], length: 3)) == nil)
        #expect(try SecureArchive.tampered(relationship, "samples.0", NSData()) == nil)
        #expect(try SecureArchive.tampered(relationship, "samples.0", nil) == nil)
        // Counts: more samples than archived, a huge count, a negative one, a fraction.
        for count in [2, 1e18, -1, 0.5] as [Double] {
            #expect(try SecureArchive.tampered(relationship, "sampleCount", NSNumber(value: count)) == nil, "\(count)")
        }
        // An activity that is not one of the workout's.
        #expect(try SecureArchive.tampered(relationship, "activityUUID", NSString(string: UUID().uuidString)) == nil)
        #expect(try SecureArchive.tampered(relationship, "activityUUID", NSString(string: "not a uuid")) == nil)
        // Untouched, it decodes.
        #expect(try SecureArchive.decoded(HKWorkoutEffortRelationship.self) { relationship.encode(with: $0) }?.samples?.count == 1)
    }
}
