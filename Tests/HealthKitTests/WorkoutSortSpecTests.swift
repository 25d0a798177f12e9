import Foundation
@testable import HealthKit
import Testing

/// Issue 15: HKWorkout.h's sort identifiers ("HKWorkoutSortIdentifierDuration",
/// "…TotalDistance", "…TotalEnergyBurned", "…TotalSwimmingStrokeCount", "…TotalFlightsClimbed";
/// developer.apple.com/documentation/healthkit/hkworkoutsortidentifierduration and siblings) in
/// `NSSortDescriptor(key:ascending:)` and as `HKWorkout` key paths → the SampleQuerySpec sent.
@Suite(.timeLimit(.minutes(10))) struct WorkoutSortSpecTests {
    static let keys: [(String, WorkoutTotal)] = [
        (HKWorkoutSortIdentifierDuration, .duration), (HKWorkoutSortIdentifierTotalDistance, .distance),
        (HKWorkoutSortIdentifierTotalEnergyBurned, .energyBurned),
        (HKWorkoutSortIdentifierTotalSwimmingStrokeCount, .swimmingStrokeCount),
        (HKWorkoutSortIdentifierTotalFlightsClimbed, .flightsClimbed),
    ]

    /// The constants' values are HKWorkout's property names, as in Apple's header.
    @Test func identifiersAreHKWorkoutPropertyNames() {
        #expect(Self.keys.map(\.0) == ["duration", "totalDistance", "totalEnergyBurned", "totalSwimmingStrokeCount", "totalFlightsClimbed"])
    }

    @Test func workoutSortKeysMapToBrokerSortsOnWorkoutQueries() throws {
        for (key, total) in Self.keys {
            for ascending in [true, false] {
                let spec = try HKSampleQuery.spec(type: HKObjectType.workoutType(), predicate: nil, limit: 3,
                                                  sortDescriptors: [NSSortDescriptor(key: key, ascending: ascending)])
                #expect(spec.sort == [SampleSort(.workout(total), ascending: ascending)], "\(key)")
            }
        }
        let byPath = try HKSampleQuery.spec(type: HKObjectType.workoutType(), predicate: nil, limit: 0,
                                            sortDescriptors: [NSSortDescriptor(keyPath: \HKWorkout.duration, ascending: false)])
        #expect(byPath.sort == [SampleSort(.workout(.duration), ascending: false)])
    }

    /// Apple documents the keys for workout queries only; another type's query refuses them
    /// before anything is sent, naming the key.
    @Test func workoutSortKeysAreRefusedOnOtherTypes() {
        for (key, _) in Self.keys {
            for type in [HKQuantityType(.stepCount), HKObjectType.categoryType(forIdentifier: .sleepAnalysis)!] as [HKSampleType] {
                do {
                    _ = try HKSampleQuery.spec(type: type, predicate: nil, limit: 0, sortDescriptors: [NSSortDescriptor(key: key, ascending: true)])
                    Issue.record("\(key) on \(type.identifier) was accepted")
                } catch {
                    #expect(error.code == .errorInvalidArgument && error.localizedDescription.contains(key), "\(error)")
                }
            }
        }
    }

    /// `SortDescriptor(\.duration)` of an `HKSampleQueryDescriptor<HKWorkout>` (duration is a
    /// Comparable TimeInterval, so Foundation's SortDescriptor takes it, as on Apple's SDK).
    @Test func typedDescriptorSortsWorkoutsByDuration() throws {
        let descriptor = HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [SortDescriptor(\.duration, order: .reverse)])
        #expect(try descriptor.querySpecs().map(\.sort) == [[SampleSort(.workout(.duration), ascending: false)]])
    }
}
