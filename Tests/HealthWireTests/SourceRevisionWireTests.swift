import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// Issue 15: a source revision's product type and system version cross the wire in saved and
/// fetched samples and in source-revision predicates, and a system version the wire cannot hold
/// fails the decode instead of becoming another version.
@Suite(.timeLimit(.minutes(10))) struct SourceRevisionWireTests {
    static let when = Date(timeIntervalSince1970: 1_700_000_000)

    static func sample(_ source: SourceRecord) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: when, endDate: when,
                     value: .quantity(1, unit: "count"), source: source)
    }

    @Test(arguments: [
        SourceRecord(bundleIdentifier: "a", name: "A", version: "1", productType: "ThinkPad X1 Carbon Gen 9",
                     operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0)),
        SourceRecord(bundleIdentifier: "a", name: "A", version: nil, productType: "x86_64"),
        SourceRecord(bundleIdentifier: "a", name: "A", version: "1", operatingSystemVersion: SystemVersion(major: 999_999_999, minor: 0, patch: 1)),
        SourceRecord(bundleIdentifier: "a", name: "A"),
    ])
    func aSampleKeepsItsSourcesSystem(source: SourceRecord) throws {
        let decoded = try SampleList(wire: SampleList([Self.sample(source)]).wireBytes()).samples
        #expect(decoded.first?.source == source)
    }

    @Test func aSystemVersionTheWireCannotHoldFailsTheDecode() {
        for version in [SystemVersion(major: -1, minor: 0, patch: 0), SystemVersion(major: 1_000_000_000, minor: 0, patch: 0)] {
            let source = SourceRecord(bundleIdentifier: "a", name: "A", operatingSystemVersion: version)
            #expect(throws: WireDecodeError.self) { try SampleList(wire: SampleList([Self.sample(source)]).wireBytes()) }
        }
    }

    /// Each field of a match survives alone, "any" (nil) included, and equal predicates encode
    /// to equal bytes whatever order their set lists them in.
    @Test func aSourceRevisionPredicateKeepsProductTypeAndSystem() throws {
        let six = SystemVersion(major: 6, minor: 1, patch: 0)
        let matches = [
            SourceRevisionMatch(bundleIdentifier: "a", version: nil),
            SourceRevisionMatch(bundleIdentifier: "a", version: nil, productType: "P"),
            SourceRevisionMatch(bundleIdentifier: "a", version: nil, productType: ""),
            SourceRevisionMatch(bundleIdentifier: "a", version: .some(nil), operatingSystemVersion: six),
            SourceRevisionMatch(bundleIdentifier: "a", version: "2", productType: "P", operatingSystemVersion: .unrecorded),
        ]
        let predicate = SamplePredicate.sourceRevisions(Set(matches))
        let bytes = SampleQuerySpec(typeIdentifier: "t", predicate: predicate).wireBytes()
        #expect(try SampleQuerySpec(wire: bytes).predicate == predicate)
        let again = SampleQuerySpec(typeIdentifier: "t", predicate: .sourceRevisions(Set(matches.reversed()))).wireBytes()
        #expect(again == bytes)
    }
}
