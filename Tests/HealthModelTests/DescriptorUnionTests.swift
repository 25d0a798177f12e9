import Foundation
import HealthModel
import Testing

/// HealthKit's reading of several query descriptors: "samples that match any of the descriptors"
/// (developer.apple.com/documentation/healthkit/hksamplequery/init(querydescriptors:limit:
/// resultshandler:)). Generated descriptor lists over two types and four predicates (none, two
/// overlapping date windows, a value test), checked against the reference semantics
/// (`SamplePredicate.matches`) on a grid of samples: each type appears once, in the order first
/// named, and its part matches a sample exactly when one of its descriptors does.
@Suite(.timeLimit(.minutes(10))) struct DescriptorUnionTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let origin = Date(timeIntervalSince1970: 1_700_000_000)

    static func window(_ from: Int, _ to: Int) -> SamplePredicate {
        .dateRange(start: origin.addingTimeInterval(Double(from * 300)), end: origin.addingTimeInterval(Double(to * 300)),
                   strictStart: false, strictEnd: false)
    }

    static let predicates: [SamplePredicate?] = [nil, window(0, 4), window(2, 8), .quantity(.greaterThanOrEqualTo, value: 50, unit: "count")]

    /// Every sample of both types at slots 0…9 with values 0…90 (a step count of 50 in count, a
    /// heart rate of 50 in count/min: the value test matches only steps' canonical unit).
    static let samples: [SampleRecord] = [steps, heartRate].flatMap { (type: String) -> [SampleRecord] in
        (0..<10).map { (slot: Int) -> SampleRecord in sample(type, slot: slot) }
    }

    static func sample(_ type: String, slot: Int) -> SampleRecord {
        let start = origin.addingTimeInterval(Double(slot * 300))
        let unit = type == steps ? "count" : "count/min"
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(60),
                            value: .quantity(Double(slot * 10), unit: unit))
    }

    @Test func eachTypeIsOnePartMatchingWhatAnyOfItsDescriptorsMatches() {
        var lists: [[DescriptorUnion.Part]] = []
        for first in Self.predicates.indices {
            for second in Self.predicates.indices {
                for third in Self.predicates.indices {
                    lists.append([DescriptorUnion.Part(typeIdentifier: Self.heartRate, predicate: Self.predicates[first]),
                                  DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: Self.predicates[second]),
                                  DescriptorUnion.Part(typeIdentifier: Self.heartRate, predicate: Self.predicates[third])])
                    lists.append([DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: Self.predicates[first]),
                                  DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: Self.predicates[second])])
                }
            }
        }
        for descriptors in lists {
            let parts = DescriptorUnion.parts(descriptors)
            var firstNamed: [String] = []
            for descriptor in descriptors where !firstNamed.contains(descriptor.typeIdentifier) { firstNamed.append(descriptor.typeIdentifier) }
            #expect(parts.map(\.typeIdentifier) == firstNamed, "\(descriptors)")
            for sample in Self.samples {
                let expected = descriptors.contains { $0.typeIdentifier == sample.typeIdentifier && ($0.predicate?.matches(sample) ?? true) }
                let matchingParts = parts.filter { $0.typeIdentifier == sample.typeIdentifier && ($0.predicate?.matches(sample) ?? true) }
                #expect(matchingParts.count == (expected ? 1 : 0), "\(descriptors) \(sample.typeIdentifier) \(sample.startDate)")
            }
        }
    }

    /// A predicate named twice for one type is kept once, so the union's size does not grow
    /// with repeats (healthd counts a predicate's conditions, `SamplePredicate.maximumConditions`).
    @Test func aRepeatedPredicateIsKeptOnce() {
        let twice = DescriptorUnion.parts([DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: Self.window(0, 4)),
                                           DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: Self.window(0, 4))])
        #expect(twice == [DescriptorUnion.Part(typeIdentifier: Self.steps, predicate: Self.window(0, 4))])
    }

    /// Sample queries keep their sort and limit through the union.
    @Test func sampleQueriesKeepTheirSortAndLimit() {
        let sort = [SampleSort(.startDate, ascending: false)]
        let specs = DescriptorUnion.specs([SampleQuerySpec(typeIdentifier: Self.steps, predicate: Self.window(0, 4), sort: sort, limit: 3),
                                           SampleQuerySpec(typeIdentifier: Self.steps, predicate: Self.window(2, 8), sort: sort, limit: 3)])
        #expect(specs == [SampleQuerySpec(typeIdentifier: Self.steps, predicate: .or([Self.window(0, 4), Self.window(2, 8)]), sort: sort, limit: 3)])
    }
}
