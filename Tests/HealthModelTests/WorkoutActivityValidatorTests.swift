import Foundation
import Testing
@testable import HealthModel

/// What a workout builder adds to a workout (`WorkoutValidator+Activities`): activities,
/// statistics, count totals and the number of samples to associate. One dimension varies per
/// test, from a workout the validator accepts.
@Suite(.timeLimit(.minutes(10))) struct WorkoutActivityValidatorTests {
    static let start = WorkoutValidatorTests.start
    static func at(_ offset: TimeInterval) -> Date { start.addingTimeInterval(offset) }

    static func activity(_ from: TimeInterval, _ to: TimeInterval, type: UInt = 46, location: Int = 1, swimming: Int = 0,
                         statistics: [WorkoutStatisticsRecord] = [], uuid: UUID = UUID()) -> WorkoutActivityRecord {
        WorkoutActivityRecord(uuid: uuid, activityType: type, locationType: location, swimmingLocationType: swimming,
                              startDate: at(from), endDate: at(to), statistics: statistics)
    }

    static func statistic(_ type: String = "HKQuantityTypeIdentifierHeartRate", _ from: TimeInterval = 0, _ to: TimeInterval = 3600,
                          sum: RecordedQuantity? = nil, average: RecordedQuantity? = nil) -> WorkoutStatisticsRecord {
        WorkoutStatisticsRecord(quantityType: type, startDate: at(from), endDate: at(to), sum: sum, average: average)
    }

    static func workout(activities: [WorkoutActivityRecord] = [], statistics: [WorkoutStatisticsRecord] = [],
                        strokes: RecordedQuantity? = nil, associations: Int = 0) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: at(3600),
                     value: .workout(WorkoutValue(activityType: 82, duration: 3600, totalSwimmingStrokeCount: strokes,
                                                  activities: activities, statistics: statistics,
                                                  associatedSampleUUIDs: (0..<associations).map { _ in UUID() })))
    }

    static func canonical(_ record: SampleRecord) throws -> WorkoutValue {
        guard case let .workout(value) = try SampleValidator.canonicalized(record).value else {
            throw HKError(.unknownError, "not a workout")
        }
        return value
    }

    static func rejection(_ record: SampleRecord) -> String? {
        do {
            _ = try SampleValidator.canonicalized(record)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func activitiesStatisticsAndTotalsAreStoredInCanonicalUnits() throws {
        let value = try Self.canonical(Self.workout(
            activities: [Self.activity(0, 1200, statistics: [Self.statistic("HKQuantityTypeIdentifierHeartRate", 0, 1200,
                                                                            average: RecordedQuantity(120, unit: "count/min"))])],
            statistics: [Self.statistic("HKQuantityTypeIdentifierActiveEnergyBurned", sum: RecordedQuantity(4.184, unit: "kJ"))],
            strokes: RecordedQuantity(300, unit: "count")))
        #expect(value.activities.first?.statistics.first?.average == RecordedQuantity(2, unit: "count/s"))
        #expect(value.statistics.first.map { abs(($0.sum?.value ?? 0) - 1) < 1e-9 } == true)
        #expect(value.statistics.first?.sum?.unit == "kcal")
        #expect(value.totalSwimmingStrokeCount == RecordedQuantity(300, unit: "count"))
    }

    @Test func activitiesMustNotOverlap() {
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 1200), Self.activity(1200, 2400)])) == nil)
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 1200), Self.activity(1199, 2400)]))?
            .contains("must not overlap") == true)
    }

    @Test func anActivityMustLieInsideTheWorkout() {
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 3600)])) == nil)
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 3601)]))?.contains("inside the workout") == true)
    }

    @Test func anActivityNeedsKnownEnumRawValues() {
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 60, type: 9999)]))?.contains("HKWorkoutActivityType") == true)
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 60, location: 0)]))?.contains("HKWorkoutSessionLocationType") == true)
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 60, swimming: 3)]))?.contains("HKWorkoutSwimmingLocationType") == true)
    }

    @Test func activityUUIDsAreUniqueWithinAWorkout() {
        let uuid = UUID()
        #expect(Self.rejection(Self.workout(activities: [Self.activity(0, 60, uuid: uuid), Self.activity(60, 120, uuid: uuid)]))?
            .contains("same UUID") == true)
    }

    @Test func aSumIsOnlyForCumulativeTypesAndAnAverageOnlyForDiscreteOnes() {
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic(sum: RecordedQuantity(1, unit: "count/min"))]))?
            .contains("no sum") == true)
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic("HKQuantityTypeIdentifierActiveEnergyBurned",
                                                                        average: RecordedQuantity(1, unit: "kcal"))]))?
            .contains("cumulative") == true)
    }

    @Test func oneStatisticsPerTypeInATypesUnitAndInsideTheInterval() {
        let average = RecordedQuantity(60, unit: "count/min")
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic(average: average), Self.statistic(average: average)]))?
            .contains("appears twice") == true)
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic(average: RecordedQuantity(60, unit: "kg"))]))?
            .contains("not compatible") == true)
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic("HKQuantityTypeIdentifierHeartRate", 0, 3601, average: average)]))?
            .contains("inside") == true)
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic("HKWorkoutTypeIdentifier", average: average)]))?
            .contains("not a quantity type") == true)
    }

    @Test func statisticsValuesKeepTheTypesRangeAndSumsTheCeiling() {
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic(average: RecordedQuantity(-1, unit: "count/min"))])) != nil)
        #expect(Self.rejection(Self.workout(statistics: [Self.statistic("HKQuantityTypeIdentifierActiveEnergyBurned",
                                                                        sum: RecordedQuantity(.infinity, unit: "kcal"))])) != nil)
    }

    @Test func theAssociationsOfOneSaveAreBounded() {
        let limit = SampleLimits.maximumWorkoutAssociations
        #expect(Self.rejection(Self.workout(associations: limit)) == nil)
        #expect(Self.rejection(Self.workout(associations: limit + 1))?.contains("samples to associate") == true)
    }
}
