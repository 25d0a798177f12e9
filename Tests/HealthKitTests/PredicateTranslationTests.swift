import Foundation
@testable import HealthKit
import Testing

/// NSPredicate (as HealthKit code builds it) → the SamplePredicate tree the broker evaluates.
@Suite(.timeLimit(.minutes(10))) struct PredicateTranslationTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let end = Date(timeIntervalSince1970: 1_700_086_400)

    @Test func dateRangeOptionsBecomeStrictFlags() throws {
        #expect(try SamplePredicate(translating: HKQuery.predicateForSamples(withStart: start, end: end, options: [])) ==
            .dateRange(start: start, end: end, strictStart: false, strictEnd: false))
        #expect(try SamplePredicate(translating: HKQuery.predicateForSamples(withStart: nil, end: end, options: .strictEndDate)) ==
            .dateRange(start: nil, end: end, strictStart: false, strictEnd: true))
        #expect(try SamplePredicate(translating: HKQuery.predicateForSamples(withStart: start, end: nil,
                                                                             options: [.strictStartDate, .strictEndDate])) ==
            .dateRange(start: start, end: nil, strictStart: true, strictEnd: true))
    }

    @Test func objectAndSourcePredicates() throws {
        let ids: Set<UUID> = [UUID(), UUID()]
        #expect(try SamplePredicate(translating: HKQuery.predicateForObjects(with: ids)) == .uuids(ids))
        let walk = HKSource(name: "Walk", bundleIdentifier: "org.example.walk")
        let run = HKSource(name: "Run", bundleIdentifier: "org.example.run")
        #expect(try SamplePredicate(translating: HKQuery.predicateForObjects(from: walk)) == .sources(["org.example.walk"]))
        #expect(try SamplePredicate(translating: HKQuery.predicateForObjects(from: [walk, run])) ==
            .sources(["org.example.walk", "org.example.run"]))
    }

    @Test func compoundPredicatesNestIntoTheTree() throws {
        let range = HKQuery.predicateForSamples(withStart: start, end: end)
        let uuid = UUID()
        let mine = HKQuery.predicateForObjects(from: HKSource(name: "A", bundleIdentifier: "a"))
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            range,
            NSCompoundPredicate(orPredicateWithSubpredicates: [mine, HKQuery.predicateForObject(with: uuid)]),
            NSCompoundPredicate(notPredicateWithSubpredicate: HKQuery.predicateForObject(with: uuid)),
        ])
        #expect(try SamplePredicate(translating: predicate) == .and([
            .dateRange(start: start, end: end, strictStart: false, strictEnd: false),
            .or([.sources(["a"]), .uuids([uuid])]),
            .not(.uuids([uuid])),
        ]))
    }

    @Test func notWithSeveralSubpredicatesIsRefused() {
        let twoOperands = NSCompoundPredicate(type: .not, subpredicates: [
            HKQuery.predicateForObject(with: UUID()), HKQuery.predicateForObject(with: UUID()),
        ])
        #expect(throws: HKError(.errorInvalidArgument, "a NOT predicate needs exactly one subpredicate, got 2")) {
            _ = try SamplePredicate(translating: twoOperands)
        }
    }

    @Test func foreignPredicateAnywhereInTheTreeIsRefused() {
        let nested = NSCompoundPredicate(andPredicateWithSubpredicates: [
            HKQuery.predicateForSamples(withStart: start, end: end), NSPredicate(value: true),
        ])
        #expect {
            _ = try SamplePredicate(translating: nested)
        } throws: { error in
            let error = error as? HKError
            return error?.code == .errorInvalidArgument && error?.message.contains("HKQuery.predicateFor") == true
        }
    }

    @Test func predicatesFilterFetchedSamplesLikeTheBroker() {
        let inside = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                      start: start.addingTimeInterval(60), end: start.addingTimeInterval(120))
        let before = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                      start: start.addingTimeInterval(-120), end: start.addingTimeInterval(-60))
        let range = HKQuery.predicateForSamples(withStart: start, end: end)
        #expect(range.evaluate(with: inside) && !range.evaluate(with: before))
        let notRange = NSCompoundPredicate(notPredicateWithSubpredicate: range)
        #expect(!notRange.evaluate(with: inside) && notRange.evaluate(with: before))
    }
}
