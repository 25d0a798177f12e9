import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(10))) struct HKSampleQueryDescriptorTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func descriptorBecomesOneSpecPerPredicate() throws {
        let range = HKQuery.predicateForSamples(withStart: start, end: nil)
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount), predicate: range)],
            sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 5)
        #expect(try descriptor.querySpecs() == [SampleQuerySpec(
            typeIdentifier: "HKQuantityTypeIdentifierStepCount",
            predicate: .dateRange(start: start, end: nil, strictStart: false, strictEnd: false),
            sort: [SampleSort(.endDate, ascending: false)], limit: 5)])
    }

    /// Apple's `HKSampleQueryDescriptor<HKCorrelation>` sorts by `\.startDate`/`\.endDate` like
    /// any sample class (issue 15, item 5): the descriptor's own sample class is sortable.
    @Test func correlationDescriptorsSortByTheirDates() throws {
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.correlation(type: HKCorrelationType(.bloodPressure))],
            sortDescriptors: [SortDescriptor(\.startDate, order: .reverse), SortDescriptor(\.endDate)])
        #expect(try descriptor.querySpecs().first?.sort == [SampleSort(.startDate, ascending: false), SampleSort(.endDate, ascending: true)])
    }

    @Test func descriptorWithoutPredicatesIsRefused() {
        let descriptor = HKSampleQueryDescriptor<HKQuantitySample>(predicates: [], sortDescriptors: [])
        #expect(throws: HKError.self) { _ = try descriptor.querySpecs() }
    }

    /// Two types, each answered by its own query, merged by start date and cut to the limit.
    @Test func severalPredicatesAreMergedSortedAndLimited() async throws {
        let minutesByType = ["HKQuantityTypeIdentifierStepCount": [1, 4, 6], "HKCategoryTypeIdentifierSleepAnalysis": [2, 3, 9]]
        let broker = try FakeBroker { [start] call in
            guard let spec = try? SampleQuerySpec(wire: call.payload) else { return call.responder.finish(RPCStatus(.invalidArgument)) }
            let records = (minutesByType[spec.typeIdentifier] ?? []).map { minute in
                let at = start.addingTimeInterval(Double(minute) * 60)
                let value: SampleRecord.Value = spec.typeIdentifier.contains("Step") ? .quantity(Double(minute), unit: "count") : .category(1)
                return SampleRecord(uuid: UUID(), typeIdentifier: spec.typeIdentifier, startDate: at, endDate: at, value: value)
            }
            try? await call.responder.send(SampleList(records).wireBytes())
            call.responder.finish()
        }
        defer { broker.close() }
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.sample(type: HKQuantityType(.stepCount)), .sample(type: HKCategoryType(.sleepAnalysis))],
            sortDescriptors: [SortDescriptor(\.startDate)], limit: 4)
        let samples = try await descriptor.result(for: broker.store)
        #expect(samples.map { Int($0.startDate.timeIntervalSince(start) / 60) } == [1, 2, 3, 4])
    }
}
