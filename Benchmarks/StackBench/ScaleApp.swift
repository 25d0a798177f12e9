import BenchSupport
import Foundation
import HealthKit

/// The app side of `--scale` (ScaleRun): saving the next stretch of samples, and the two reads.
extension AppSide {
    /// `app scale-save FROM TO`: samples FROM..<TO in `save([1000])` calls; prints samples per
    /// second of time spent in `save` (making the objects is not timed).
    static func scaleSave(_ arguments: [String], _ store: HKHealthStore) async throws {
        guard arguments.count == 2, let from = Int(arguments[0]), let to = Int(arguments[1]), from < to else {
            throw BenchFailed("app scale-save FROM TO")
        }
        var inSave = Duration.zero
        var next = from
        while next < to {
            let end = min(to, next + ScaleRun.saveSize)
            let batch = (next..<end).map(scaleSample)
            let started = ContinuousClock.now
            try await store.save(batch)
            inSave += ContinuousClock.now - started
            next = end
        }
        report([Double(to - from) / seconds(inSave)])
    }

    /// `app scale-read ROUNDS Q0 Q1 S0 S1`: the sample query of samples Q0..<Q1 and the sum of
    /// samples S0..<S1, each checked against what was saved; prints both medians in ms.
    static func scaleRead(_ arguments: [String], _ store: HKHealthStore) async throws {
        let numbers = arguments.compactMap { Int($0) }
        guard numbers.count == 5 else { throw BenchFailed("app scale-read ROUNDS Q0 Q1 S0 S1") }
        let (rounds, query, statistics) = (numbers[0], numbers[1]..<numbers[2], numbers[3]..<numbers[4])
        let sampleQuery = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: savedType, predicate: scaleRange(query))], sortDescriptors: [SortDescriptor(\.startDate)])
        let sum = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: savedType, predicate: scaleRange(statistics)),
                                              options: .cumulativeSum)
        let expectedSum = statistics.reduce(0.0) { $0 + scaleQuantity($1) }
        var queryTimes: [Double] = [], sumTimes: [Double] = []
        for round in 0...rounds {
            var started = ContinuousClock.now
            let found = try await sampleQuery.result(for: store)
            let queryTime = seconds(ContinuousClock.now - started) * 1_000
            guard found.count == query.count else { throw BenchFailed("scale query: \(found.count) samples, expected \(query.count)") }
            started = ContinuousClock.now
            let total = try await sum.result(for: store)?.sumQuantity()?.doubleValue(for: .kilocalorie())
            let sumTime = seconds(ContinuousClock.now - started) * 1_000
            guard let total, abs(total - expectedSum) < 1e-6 * expectedSum else {
                throw BenchFailed("scale sum: \(String(describing: total)) kcal, expected \(expectedSum)")
            }
            if round > 0 {
                queryTimes.append(queryTime)
                sumTimes.append(sumTime)
            }
        }
        report([percentile(queryTimes, 0.5), percentile(sumTimes, 0.5)])
    }

    private static func scaleQuantity(_ index: Int) -> Double { 1 + Double(index % 50) }

    private static func scaleDate(_ index: Int) -> Date { Date(timeIntervalSince1970: ScaleRun.base + Double(index) * ScaleRun.spacing) }

    private static func scaleSample(_ index: Int) -> HKQuantitySample {
        let start = scaleDate(index)
        return HKQuantitySample(type: savedType, quantity: HKQuantity(unit: .kilocalorie(), doubleValue: scaleQuantity(index)),
                                start: start, end: start.addingTimeInterval(1))
    }

    private static func scaleRange(_ samples: Range<Int>) -> NSPredicate {
        HKQuery.predicateForSamples(withStart: scaleDate(samples.lowerBound), end: scaleDate(samples.upperBound), options: .strictStartDate)
    }
}
