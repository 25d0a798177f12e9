import Foundation
@testable import HealthKit
import Testing

/// HealthKit's device, metadata, quantity and category predicate functions → the tree.
@Suite(.timeLimit(.minutes(10))) struct ValuePredicateTranslationTests {
    func tree(_ predicate: NSPredicate) throws -> SamplePredicate { try SamplePredicate(translating: predicate) }

    @Test func deviceAndMetadataPredicates() throws {
        #expect(try tree(HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyModel, allowedValues: ["W1"]))
                == .device(.model, allowedValues: ["W1"]))
        #expect(try tree(HKQuery.predicateForObjects(withMetadataKey: HKMetadataKeyWasUserEntered)) == .metadata(key: HKMetadataKeyWasUserEntered, .exists))
        #expect(try tree(HKQuery.predicateForObjects(withMetadataKey: "k", allowedValues: ["a", 2, true]))
                == .metadata(key: "k", .oneOf([.string("a"), .number(2), .bool(true)])))
        #expect(try tree(HKQuery.predicateForObjects(withMetadataKey: "k", operatorType: .greaterThan,
                                                     value: HKQuantity(unit: .gram(), doubleValue: 5)))
                == .metadata(key: "k", .compare(.greaterThan, .quantity(value: 5, unit: "g"))))
    }

    @Test func quantityAndCategoryPredicates() throws {
        #expect(try tree(HKQuery.predicateForQuantitySamples(with: .lessThanOrEqualTo,
                                                             quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 90)))
                == .quantity(.lessThanOrEqualTo, value: 90, unit: "count/min"))
        #expect(try tree(HKQuery.predicateForCategorySamples(with: .notEqualTo, value: 2)) == .categoryValue(.notEqualTo, 2))
    }

    @Test func argumentsHealthKitRejectsFailTheQueryWithTheReason() {
        let cases: [(NSPredicate, String)] = [
            (HKQuery.predicateForObjects(withDeviceProperty: "HKDevicePropertyColour", allowedValues: ["red"]),
             "HKDevicePropertyColour is not an HKDevicePropertyKey"),
            (HKQuery.predicateForCategorySamples(with: .like, value: 1),
             "operator \(NSComparisonPredicate.Operator.like.rawValue) is not supported; use lessThan, lessThanOrEqualTo, greaterThan, greaterThanOrEqualTo, equalTo or notEqualTo"),
            (HKQuery.predicateForObjects(withMetadataKey: "k", allowedValues: [[1]]),
             "metadata value for key k has type Array<Int>; use String, a number, Date, HKQuantity or Bool"),
        ]
        for (predicate, message) in cases {
            #expect(throws: HKError(.errorInvalidArgument, message)) { _ = try tree(predicate) }
            // Nested inside a compound predicate, too.
            #expect(throws: HKError(.errorInvalidArgument, message)) {
                _ = try tree(NSCompoundPredicate(notPredicateWithSubpredicate: predicate))
            }
            #expect(!predicate.evaluate(with: nil))
        }
    }

    @Test func fetchedSamplesAreFilteredLikeTheBroker() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let watch = HKDevice(name: "Watch", manufacturer: nil, model: nil, hardwareVersion: nil, firmwareVersion: nil,
                             softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
        let fast = HKQuantitySample(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 120),
                                    start: start, end: start, device: watch, metadata: ["effort": 8])
        let slow = HKQuantitySample(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 50),
                                    start: start, end: start)
        let above = HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: HKUnit(from: "count/s"), doubleValue: 1))
        #expect(above.evaluate(with: fast) && !above.evaluate(with: slow))
        let fromWatch = HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyName, allowedValues: ["Watch"])
        #expect(fromWatch.evaluate(with: fast) && !fromWatch.evaluate(with: slow))
        let hardEffort = HKQuery.predicateForObjects(withMetadataKey: "effort", operatorType: .greaterThanOrEqualTo, value: 8)
        #expect(hardEffort.evaluate(with: fast) && !hardEffort.evaluate(with: slow))
    }
}
