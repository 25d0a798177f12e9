import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// Each metadata comparison reads every row's metadata JSON again, so a predicate's per-row cost
/// is bounded by `SamplePredicate.maximumMetadataComparisons`, checked where healthd decodes every
/// predicate an app sends (`PredicateWire.read`). A predicate of ~400 metadata conditions, within
/// the general condition limit, cost 0.3–0.45 s per row of large metadata (s19 availability
/// review, finding 1): before the bound it decoded and ran.
@Suite(.timeLimit(.minutes(10))) struct MetadataComparisonLimitTests {
    static let limit = SamplePredicate.maximumMetadataComparisons

    /// The same number of comparisons, built the ways an app can: separate conditions OR-ed or
    /// AND-ed, one condition's allowed values, and a mix under NOT.
    static func shapes(_ count: Int) -> [(String, SamplePredicate)] {
        let conditions = (0..<count).map { SamplePredicate.metadata(key: "k\($0)", .compare(.equalTo, .string("x"))) }
        let values = (0..<count).map { MetadataValue.string("v\($0)") }
        let half = count / 2
        return [
            ("OR of conditions", .or(conditions)),
            ("AND of conditions", .and(conditions)),
            ("one-of values", .metadata(key: "k", .oneOf(values))),
            ("NOT of a mix", .not(.or([.metadata(key: "k", .oneOf(Array(values.prefix(half))))] + conditions.suffix(count - half)))),
        ]
    }

    static func decoded(_ predicate: SamplePredicate) throws -> SamplePredicate? {
        try SampleQuerySpec(wire: SampleQuerySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount", predicate: predicate).wireBytes()).predicate
    }

    @Test(arguments: [limit, limit + 1, 390])
    func metadataComparisonsPastTheBoundAreRefusedNamingIt(count: Int) throws {
        for (shape, predicate) in Self.shapes(count) {
            #expect(predicate.metadataComparisonCount == count, "\(shape)")
            #expect(predicate.conditionCount <= SamplePredicate.maximumConditions, "\(shape): the general limit alone would admit it")
            if count <= Self.limit {
                #expect(try Self.decoded(predicate) == predicate, "\(shape)")
            } else {
                do {
                    _ = try Self.decoded(predicate)
                    Issue.record("\(shape): \(count) metadata comparisons decoded")
                } catch let WireDecodeError.invalidField(message) {
                    #expect(message.contains("at most \(Self.limit) metadata comparisons"), "\(shape): \(message)")
                    #expect(message.contains("holds \(count)"), "\(shape): \(message)")
                }
            }
        }
    }

    /// Conditions on other things than metadata do not count against this bound.
    @Test func otherConditionsDoNotCount() throws {
        let dates = (0..<200).map { SamplePredicate.dateRange(start: Date(timeIntervalSince1970: Double($0)), end: nil, strictStart: false, strictEnd: false) }
        let predicate = SamplePredicate.or(dates + [.metadata(key: "k", .exists)])
        #expect(predicate.metadataComparisonCount == 1)
        #expect(try Self.decoded(predicate) == predicate)
    }
}
