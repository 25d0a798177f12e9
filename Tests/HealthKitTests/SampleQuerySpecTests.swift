import Foundation
@testable import HealthKit
import Testing

/// HKSampleQuery's arguments → the SampleQuerySpec sent to the broker.
@Suite(.timeLimit(.minutes(10))) struct SampleQuerySpecTests {
    func spec(limit: Int = HKObjectQueryNoLimit, sort: [NSSortDescriptor]) throws -> SampleQuerySpec {
        try HKSampleQuery.spec(type: HKQuantityType(.stepCount), predicate: nil, limit: limit, sortDescriptors: sort)
    }

    @Test func healthKitSortKeysMapToBrokerSorts() throws {
        let spec = try spec(limit: 20, sort: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false),
                                              NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: true)])
        #expect(spec == SampleQuerySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                                        sort: [SampleSort(.startDate, ascending: false), SampleSort(.endDate, ascending: true)],
                                        limit: 20))
    }

    @Test func swiftKeyPathsOnSampleClassesAreAccepted() throws {
        let spec = try spec(sort: [NSSortDescriptor(keyPath: \HKQuantitySample.endDate, ascending: false)])
        #expect(spec.sort == [SampleSort(.endDate, ascending: false)])
    }

    @Test func otherSortKeysAreRefused() {
        #expect(throws: HKError.self) { _ = try spec(sort: [NSSortDescriptor(key: "quantity", ascending: true)]) }
    }

    @Test func negativeLimitIsRefused() {
        #expect(throws: HKError.self) { _ = try spec(limit: -1, sort: []) }
    }
}
