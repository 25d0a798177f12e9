import Testing
@testable import HealthModel

@Suite(.timeLimit(.minutes(10))) struct HKStatisticsOptionsTests {
    let steps = HKQuantityType(.stepCount)
    let heartRate = HKQuantityType(.heartRate)

    func message(_ options: HKStatisticsOptions, _ type: HKQuantityType) -> String? {
        do {
            try options.validate(for: type)
            return nil
        } catch {
            #expect(error.code == .errorInvalidArgument)
            return error.message
        }
    }

    @Test func rawValuesAreHealthKits() {
        #expect(HKStatisticsOptions.separateBySource.rawValue == 1)
        #expect(HKStatisticsOptions.discreteAverage.rawValue == 2)
        #expect(HKStatisticsOptions.discreteMin.rawValue == 4)
        #expect(HKStatisticsOptions.discreteMax.rawValue == 8)
        #expect(HKStatisticsOptions.cumulativeSum.rawValue == 16)
        #expect(HKStatisticsOptions.mostRecent.rawValue == 32)
        #expect(HKStatisticsOptions.duration.rawValue == 64)
    }

    @Test func discreteOptionsAreRefusedForCumulativeTypes() {
        #expect(message([.cumulativeSum, .discreteAverage], steps)
                == "Statistics option HKStatisticsOptionDiscreteAverage is not compatible with cumulative data type HKQuantityTypeIdentifierStepCount")
        #expect(message(.discreteMax, steps)?.contains("HKStatisticsOptionDiscreteMax") == true)
    }

    @Test func aSumIsRefusedForDiscreteTypes() {
        #expect(message([.discreteAverage, .cumulativeSum], heartRate)
                == "Statistics option HKStatisticsOptionCumulativeSum is not compatible with discrete data type HKQuantityTypeIdentifierHeartRate")
    }

    @Test func optionsEveryStyleAllows() {
        #expect(message([.cumulativeSum, .mostRecent, .duration, .separateBySource], steps) == nil)
        #expect(message([.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration, .separateBySource], heartRate) == nil)
        #expect(message([], heartRate) == nil)
    }

    @Test func unknownBitsAreRefused() {
        #expect(message(HKStatisticsOptions(rawValue: 1 << 9), heartRate) == "Unknown statistics option bits 0x200")
    }

    @Test func specValidationNamesTheProblem() {
        #expect(throws: HKError.self) {
            try StatisticsQuerySpec(typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", options: []).validatedType()
        }
        #expect(throws: HKError.self) { try StatisticsQuerySpec(typeIdentifier: "nonsense", options: []).validatedType() }
        let collection = StatisticsCollectionSpec(
            statistics: StatisticsQuerySpec(typeIdentifier: steps.identifier, options: .cumulativeSum),
            anchor: .init(timeIntervalSince1970: 0), interval: StatisticsInterval(days: 1), timeZoneIdentifier: "Mars/Olympus")
        #expect(throws: HKError.self) { try collection.validate() }
    }

    @Test func describesWithHealthKitsNames() {
        #expect(HKStatisticsOptions([.cumulativeSum, .separateBySource]).description
                == "HKStatisticsOptionSeparateBySource|HKStatisticsOptionCumulativeSum")
    }
}
