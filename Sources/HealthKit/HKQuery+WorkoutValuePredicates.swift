public import Foundation

/// HealthKit's workout predicates on totals and statistics, and the iOS 16 activity predicates.
/// healthd evaluates them in SQL on the workouts the app may read (a hidden workout never
/// matches); on another sample type they match nothing. Quantities are converted here, once,
/// to the unit the store keeps (kcal, m, count; a statistic's type's canonical unit): a unit of
/// another dimension, an operator other than <, <=, >, >=, ==, != or a number that is not finite
/// makes a predicate that fails the query with `errorInvalidArgument`. A workout without the
/// total or statistic never matches, whatever the operator.
extension HKQuery {
    public static func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, duration: TimeInterval) -> NSPredicate {
        workoutTotal(.duration, operatorType, duration, unit: "s")
    }

    public static func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, totalEnergyBurned: HKQuantity) -> NSPredicate {
        workoutTotal(.energyBurned, operatorType, totalEnergyBurned.doubleValue(for: totalEnergyBurned.unit), unit: totalEnergyBurned.unit.unitString)
    }

    public static func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, totalDistance: HKQuantity) -> NSPredicate {
        workoutTotal(.distance, operatorType, totalDistance.doubleValue(for: totalDistance.unit), unit: totalDistance.unit.unitString)
    }

    public static func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator,
                                            totalSwimmingStrokeCount: HKQuantity) -> NSPredicate {
        workoutTotal(.swimmingStrokeCount, operatorType, totalSwimmingStrokeCount.doubleValue(for: totalSwimmingStrokeCount.unit),
                     unit: totalSwimmingStrokeCount.unit.unitString)
    }

    public static func predicateForWorkouts(with operatorType: NSComparisonPredicate.Operator, totalFlightsClimbed: HKQuantity) -> NSPredicate {
        workoutTotal(.flightsClimbed, operatorType, totalFlightsClimbed.doubleValue(for: totalFlightsClimbed.unit),
                     unit: totalFlightsClimbed.unit.unitString)
    }

    // MARK: iOS 16 workout statistics

    public static func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                            sumQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(.sum, operatorType, quantityType, sumQuantity)
    }

    public static func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                            minimumQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(.minimum, operatorType, quantityType, minimumQuantity)
    }

    public static func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                            maximumQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(.maximum, operatorType, quantityType, maximumQuantity)
    }

    public static func predicateForWorkouts(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                            averageQuantity: HKQuantity) -> NSPredicate {
        workoutStatistic(.average, operatorType, quantityType, averageQuantity)
    }

    // MARK: iOS 16 activities

    /// Workouts with at least one activity that `activityPredicate` (a
    /// `predicateForWorkoutActivities…` predicate, or an `NSCompoundPredicate` of them) matches.
    public static func predicateForWorkouts(activityPredicate: NSPredicate) -> NSPredicate {
        do throws(HKError) {
            return SampleTreePredicate(.workoutValue(.activity(try WorkoutActivityTest(translating: activityPredicate))))
        } catch {
            return UnusablePredicate(error)
        }
    }

    public static func predicateForWorkoutActivities(workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
        WorkoutActivityPredicate(.activityType(workoutActivityType.rawValue))
    }

    /// Activities whose span (end minus start) compares with `duration` seconds.
    public static func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, duration: TimeInterval) -> NSPredicate {
        do throws(HKError) {
            let op = try ComparisonOperator(translating: operatorType)
            guard duration.isFinite else { throw HKError(.errorInvalidArgument, "the predicate's duration is not a finite number") }
            return WorkoutActivityPredicate(.duration(op, duration))
        } catch {
            return UnusablePredicate(error)
        }
    }

    /// Activities in a time range, with `predicateForSamples(withStart:end:options:)`'s rule.
    public static func predicateForWorkoutActivities(start startDate: Date?, end endDate: Date?,
                                                     options: HKQueryOptions = []) -> NSPredicate {
        WorkoutActivityPredicate(.dateRange(start: startDate, end: endDate, strictStart: options.contains(.strictStartDate),
                                            strictEnd: options.contains(.strictEndDate)))
    }

    public static func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                     sumQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(.sum, operatorType, quantityType, sumQuantity)
    }

    public static func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                     minimumQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(.minimum, operatorType, quantityType, minimumQuantity)
    }

    public static func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                     maximumQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(.maximum, operatorType, quantityType, maximumQuantity)
    }

    public static func predicateForWorkoutActivities(operatorType: NSComparisonPredicate.Operator, quantityType: HKQuantityType,
                                                     averageQuantity: HKQuantity) -> NSPredicate {
        activityStatistic(.average, operatorType, quantityType, averageQuantity)
    }

    // MARK: The one conversion of each kind

    private static func workoutTotal(_ total: WorkoutTotal, _ operatorType: NSComparisonPredicate.Operator,
                                     _ value: Double, unit: String) -> NSPredicate {
        do throws(HKError) {
            let op = try ComparisonOperator(translating: operatorType)
            return SampleTreePredicate(.workoutValue(.total(total, op, try total.canonical(value, unit: unit))))
        } catch {
            return UnusablePredicate(error)
        }
    }

    private static func statisticTest(_ statistic: WorkoutStatisticTest.Statistic, _ operatorType: NSComparisonPredicate.Operator,
                                       _ quantityType: HKQuantityType, _ quantity: HKQuantity) throws(HKError) -> WorkoutStatisticTest {
        try WorkoutStatisticTest(quantityType: quantityType, statistic: statistic, op: try ComparisonOperator(translating: operatorType),
                                 quantity: quantity.doubleValue(for: quantity.unit), unit: quantity.unit.unitString)
    }

    private static func workoutStatistic(_ statistic: WorkoutStatisticTest.Statistic, _ operatorType: NSComparisonPredicate.Operator,
                                         _ quantityType: HKQuantityType, _ quantity: HKQuantity) -> NSPredicate {
        do throws(HKError) {
            return SampleTreePredicate(.workoutValue(.statistic(try statisticTest(statistic, operatorType, quantityType, quantity))))
        } catch {
            return UnusablePredicate(error)
        }
    }

    private static func activityStatistic(_ statistic: WorkoutStatisticTest.Statistic, _ operatorType: NSComparisonPredicate.Operator,
                                          _ quantityType: HKQuantityType, _ quantity: HKQuantity) -> NSPredicate {
        do throws(HKError) {
            return WorkoutActivityPredicate(.statistic(try statisticTest(statistic, operatorType, quantityType, quantity)))
        } catch {
            return UnusablePredicate(error)
        }
    }
}
