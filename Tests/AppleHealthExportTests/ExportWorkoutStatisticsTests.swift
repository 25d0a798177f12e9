@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// A workout's statistics (`HKWorkout.allStatistics`) leave in Apple's `<WorkoutStatistics>`
/// elements and come back through the reader and the importer's conversion, valid for the
/// validator: a sum for a cumulative type, average/min/max for a discrete one, over the workout.
@Suite(.timeLimit(.minutes(10))) struct ExportWorkoutStatisticsTests {
    let helper = ExportXMLWriterTests()

    @Test func workoutStatisticsReadBackAsTheWorkoutsStatistics() throws {
        let start = helper.start, end = helper.start.addingTimeInterval(1800)
        let statistics = [
            WorkoutStatisticsRecord(quantityType: "HKQuantityTypeIdentifierActiveEnergyBurned", startDate: start, endDate: end,
                                    sum: RecordedQuantity(350, unit: "kcal")),
            WorkoutStatisticsRecord(quantityType: "HKQuantityTypeIdentifierHeartRate", startDate: start, endDate: end,
                                    average: RecordedQuantity(2.5, unit: "count/s"), minimum: RecordedQuantity(1.5, unit: "count/s"),
                                    maximum: RecordedQuantity(3, unit: "count/s")),
        ]
        let workout = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: end,
                                   value: .workout(WorkoutValue(activityType: 37, duration: 1800, statistics: statistics)))
        let element = try #require(helper.writer().element(workout, sourceName: "Watch", sourceVersion: "10"))
        #expect(element.contains("<WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\""), "\(element)")
        let items = try helper.readBack(element)
        guard case let .workout(read)? = items.last else { Issue.record("\(items)"); return }
        #expect(read.statistics.count == 2)
        let converted = try SampleValidator.canonicalized(try ExportConversion.sample(read).record)
        guard case let .workout(value) = converted.value else { Issue.record("\(converted.value)"); return }
        #expect(value.statistics == statistics)
        #expect(value.totalEnergyBurned == RecordedQuantity(350, unit: "kcal"))  // from the sum, as newer exports give it
    }
}
