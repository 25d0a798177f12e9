import Foundation
import HealthModel
import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct ValuePredicateWireTests {
    @Test func everyNewPredicateKindRoundTrips() throws {
        let predicates: [SamplePredicate] = DeviceProperty.allCases.map { .device($0, allowedValues: ["a", "b"]) } + [
            .metadata(key: "k", .exists),
            .metadata(key: "k", .oneOf([.string("s"), .number(1.5), .date(Date(timeIntervalSince1970: 1_700_000_000)),
                                        .quantity(value: 70, unit: "kg"), .bool(true)])),
            .not(.metadata(key: "k", .compare(.lessThanOrEqualTo, .quantity(value: 1, unit: "mg/dL")))),
            .and(ComparisonOperator.allCases.map { .quantity($0, value: 2.5, unit: "count/min") }),
            .or(ComparisonOperator.allCases.map { .categoryValue($0, 3) }),
            // Any version, objects saved without a version, and one version (issue 15).
            .sourceRevisions([SourceRevisionMatch(bundleIdentifier: "org.a", version: nil),
                              SourceRevisionMatch(bundleIdentifier: "org.a", version: .some(nil)),
                              SourceRevisionMatch(bundleIdentifier: "org.b", version: "1.2")]),
            .sourceRevisions([]),
            .devices([DeviceRecord(name: "Watch", model: "Watch6,1"), DeviceRecord()]),
            .noCorrelation, .not(.noCorrelation),
        ]
        for predicate in predicates {
            let spec = SampleQuerySpec(typeIdentifier: "t", predicate: predicate)
            #expect(try SampleQuerySpec(wire: spec.wireBytes()) == spec, "\(predicate)")
        }
    }
}
