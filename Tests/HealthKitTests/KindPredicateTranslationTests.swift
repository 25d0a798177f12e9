import Foundation
@testable import HealthKit
import Testing

/// Issue 15's workout, activity, category-list and electrocardiogram predicate functions → the
/// tree healthd evaluates, with quantities converted once to the stored unit, and the arguments
/// HealthKit would reject failing the query with the reason. Signatures as on
/// developer.apple.com/documentation/healthkit/hkquery (predicateForWorkouts(with:duration:),
/// predicateForWorkouts(operatorType:quantityType:sumQuantity:), predicateForWorkouts(activityPredicate:),
/// predicateForWorkoutActivities(workoutActivityType:), predicateForCategorySamples(equalTo:),
/// predicateForElectrocardiograms(classification:) / (symptomsStatus:)).
@Suite(.timeLimit(.minutes(10))) struct KindPredicateTranslationTests {
    func tree(_ predicate: NSPredicate) throws -> SamplePredicate { try SamplePredicate(translating: predicate) }

    @Test func workoutTotalsAreConvertedToTheStoredUnits() throws {
        #expect(try tree(HKQuery.predicateForWorkouts(with: .greaterThanOrEqualTo, duration: 60.0 * 30.0))
                == .workoutValue(.total(.duration, .greaterThanOrEqualTo, 1800)))
        #expect(try tree(HKQuery.predicateForWorkouts(with: .greaterThan, totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 500)))
                == .workoutValue(.total(.energyBurned, .greaterThan, 500)))
        // 1 kJ = 1/4.184 kcal; 6.5 mi = 10,460.736 m.
        let energy = try tree(HKQuery.predicateForWorkouts(with: .lessThan, totalEnergyBurned: HKQuantity(unit: .jouleUnit(with: .kilo), doubleValue: 4.184)))
        guard case let .workoutValue(.total(.energyBurned, .lessThan, kcal)) = energy else { Issue.record("\(energy)"); return }
        #expect(abs(kcal - 1) < 1e-12)
        let distance = try tree(HKQuery.predicateForWorkouts(with: .greaterThanOrEqualTo, totalDistance: HKQuantity(unit: .mile(), doubleValue: 6.5)))
        guard case let .workoutValue(.total(.distance, .greaterThanOrEqualTo, meters)) = distance else { Issue.record("\(distance)"); return }
        #expect(abs(meters - 10_460.736) < 1e-6)
        #expect(try tree(HKQuery.predicateForWorkouts(with: .equalTo, totalSwimmingStrokeCount: HKQuantity(unit: .count(), doubleValue: 100)))
                == .workoutValue(.total(.swimmingStrokeCount, .equalTo, 100)))
        #expect(try tree(HKQuery.predicateForWorkouts(with: .notEqualTo, totalFlightsClimbed: HKQuantity(unit: .count(), doubleValue: 10)))
                == .workoutValue(.total(.flightsClimbed, .notEqualTo, 10)))
    }

    @Test func statisticsAreConvertedToTheTypesCanonicalUnit() throws {
        let heartRate = HKQuantityType(.heartRate)
        let perMinute = HKUnit.count().unitDivided(by: .minute())
        #expect(try tree(HKQuery.predicateForWorkouts(operatorType: .greaterThan, quantityType: heartRate,
                                                      averageQuantity: HKQuantity(unit: perMinute, doubleValue: 150)))
                == .workoutValue(.statistic(WorkoutStatisticTest(quantityType: heartRate.identifier, statistic: .average, op: .greaterThan,
                                                                  value: 2.5))))
        let energy = HKQuantityType(.activeEnergyBurned)
        #expect(try tree(HKQuery.predicateForWorkouts(operatorType: .lessThan, quantityType: energy,
                                                      sumQuantity: HKQuantity(unit: .kilocalorie(), doubleValue: 400)))
                == .workoutValue(.statistic(WorkoutStatisticTest(quantityType: energy.identifier, statistic: .sum, op: .lessThan, value: 400))))
        for (predicate, statistic) in [
            (HKQuery.predicateForWorkouts(operatorType: .equalTo, quantityType: heartRate, minimumQuantity: HKQuantity(unit: perMinute, doubleValue: 60)),
             WorkoutStatisticTest.Statistic.minimum),
            (HKQuery.predicateForWorkouts(operatorType: .equalTo, quantityType: heartRate, maximumQuantity: HKQuantity(unit: perMinute, doubleValue: 60)),
             .maximum),
        ] {
            #expect(try tree(predicate) == .workoutValue(.statistic(WorkoutStatisticTest(quantityType: heartRate.identifier, statistic: statistic,
                                                                                          op: .equalTo, value: 1))))
        }
    }

    @Test func activityPredicatesTravelInsideAWorkoutPredicate() throws {
        let running = HKQuery.predicateForWorkoutActivities(workoutActivityType: .running)
        let long = HKQuery.predicateForWorkoutActivities(operatorType: .greaterThanOrEqualTo, duration: 1800)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let during = HKQuery.predicateForWorkoutActivities(start: start, end: start.addingTimeInterval(60), options: .strictEndDate)
        let hard = HKQuery.predicateForWorkoutActivities(operatorType: .greaterThan, quantityType: HKQuantityType(.heartRate),
                                                         maximumQuantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 180))
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [running, NSCompoundPredicate(notPredicateWithSubpredicate: long), during, hard])
        #expect(try tree(HKQuery.predicateForWorkouts(activityPredicate: both)) == .workoutValue(.activity(.and([
            .activityType(HKWorkoutActivityType.running.rawValue), .not(.duration(.greaterThanOrEqualTo, 1800)),
            .dateRange(start: start, end: start.addingTimeInterval(60), strictStart: false, strictEnd: true),
            .statistic(WorkoutStatisticTest(quantityType: HKQuantityTypeIdentifier.heartRate.rawValue, statistic: .maximum, op: .greaterThan, value: 3)),
        ]))))
        // As in HealthKit, an activity predicate alone does not select samples.
        #expect(throws: HKError.self) { _ = try tree(running) }
        #expect(throws: HKError.self) { _ = try tree(NSCompoundPredicate(orPredicateWithSubpredicates: [running])) }
        // And a sample predicate is not an activity predicate.
        #expect(throws: HKError.self) {
            _ = try tree(HKQuery.predicateForWorkouts(activityPredicate: HKQuery.predicateForWorkouts(with: .running)))
        }
    }

    @Test func categoryAndElectrocardiogramPredicates() throws {
        #expect(try tree(HKQuery.predicateForCategorySamples(equalTo: [3, 4, 5])) == .categoryValues([3, 4, 5]))
        #expect(try tree(HKQuery.predicateForCategorySamples(equalTo: [])) == .categoryValues([]))
        // developer.apple.com/documentation/healthkit/hkcategoryvaluepredicateproviding
        #expect(try tree(HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: HKCategoryValueSleepAnalysis.allAsleepValues)) == .categoryValues([1, 3, 4, 5]))
        #expect(try tree(HKCategoryValueSleepAnalysis.predicateForSamples(.greaterThanOrEqualTo, value: .asleepCore)) == .categoryValue(.greaterThanOrEqualTo, 3))
        #expect(try tree(HKCategoryValueAppleStandHour.predicateForSamples(equalTo: [.stood])) == .categoryValues([0]))
        #expect(try tree(HKQuery.predicateForElectrocardiograms(classification: .atrialFibrillation))
                == .electrocardiogram(.classification(HKElectrocardiogram.Classification.atrialFibrillation.rawValue)))
        #expect(try tree(HKQuery.predicateForElectrocardiograms(symptomsStatus: .present))
                == .electrocardiogram(.symptomsStatus(HKElectrocardiogram.SymptomsStatus.present.rawValue)))
    }

    /// Operators outside <, <=, >, >=, ==, !=, units of another dimension and numbers that are
    /// not finite (as given, or once converted) fail the query with `errorInvalidArgument`.
    @Test func argumentsHealthKitRejectsFailTheQueryWithTheReason() {
        let heartRate = HKQuantityType(.heartRate)
        let cases: [NSPredicate] = [
            HKQuery.predicateForWorkouts(with: .like, duration: 60),
            HKQuery.predicateForWorkouts(with: .between, totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 1)),
            HKQuery.predicateForWorkouts(with: .greaterThan, duration: .nan),
            HKQuery.predicateForWorkouts(with: .greaterThan, duration: .infinity),
            HKQuery.predicateForWorkouts(with: .greaterThan, totalEnergyBurned: HKQuantity(unit: .meter(), doubleValue: 1)),
            HKQuery.predicateForWorkouts(with: .greaterThan, totalDistance: HKQuantity(unit: .kilocalorie(), doubleValue: 1)),
            HKQuery.predicateForWorkouts(with: .greaterThan, totalDistance: HKQuantity(unit: .meter(), doubleValue: -.infinity)),
            HKQuery.predicateForWorkouts(with: .greaterThan, totalSwimmingStrokeCount: HKQuantity(unit: .second(), doubleValue: 1)),
            HKQuery.predicateForWorkouts(with: .greaterThan, totalFlightsClimbed: HKQuantity(unit: .meter(), doubleValue: 1)),
            // Finite as given, infinite in the stored unit.
            HKQuery.predicateForWorkouts(with: .greaterThan, totalDistance: HKQuantity(unit: .mile(), doubleValue: .greatestFiniteMagnitude)),
            HKQuery.predicateForWorkouts(operatorType: .greaterThan, quantityType: heartRate, averageQuantity: HKQuantity(unit: .meter(), doubleValue: 1)),
            HKQuery.predicateForWorkouts(operatorType: .contains, quantityType: heartRate,
                                         averageQuantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 1)),
            HKQuery.predicateForWorkouts(activityPredicate: HKQuery.predicateForWorkoutActivities(operatorType: .greaterThan, duration: .nan)),
            HKQuery.predicateForWorkouts(activityPredicate: HKQuery.predicateForWorkoutActivities(operatorType: .matches, duration: 1)),
            HKQuery.predicateForWorkouts(activityPredicate: HKQuery.predicateForWorkoutActivities(
                operatorType: .lessThan, quantityType: heartRate, sumQuantity: HKQuantity(unit: .gram(), doubleValue: 1))),
        ]
        for predicate in cases {
            #expect(throws: HKError.self, "\(predicate)") { _ = try tree(predicate) }
            do {
                _ = try tree(NSCompoundPredicate(andPredicateWithSubpredicates: [predicate]))
                Issue.record("accepted \(predicate)")
            } catch let error as HKError {
                #expect(error.code == .errorInvalidArgument && !error.message.isEmpty, "\(predicate)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
