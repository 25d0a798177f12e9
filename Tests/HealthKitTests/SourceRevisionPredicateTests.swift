import Foundation
import HealthModel
import Testing

@testable import HealthKit

/// Issue 15: what `predicateForObjects(from: Set<HKSourceRevision>)` asks the broker for. Each
/// field of the revision is matched unless it is Apple's "any" constant; a revision made with
/// `init(source:version:)` (nil product type, 0.0.0) asks for no particular device.
@Suite(.timeLimit(.minutes(10))) struct SourceRevisionPredicateTests {
    static let source = HKSource(name: "App", bundleIdentifier: "org.example.app")
    static let six = OperatingSystemVersion(majorVersion: 6, minorVersion: 1, patchVersion: 0)

    static func matches(_ revision: HKSourceRevision) -> Set<SourceRevisionMatch>? {
        guard case let .sourceRevisions(matches)? = (HKQuery.predicateForObjects(from: [revision]) as? SampleTreePredicate)?.samplePredicate else {
            return nil
        }
        return matches
    }

    @Test func eachFieldIsMatchedUnlessItIsAppleAnyConstant() {
        let exact = HKSourceRevision(source: Self.source, version: "1", productType: "P", operatingSystemVersion: Self.six)
        #expect(Self.matches(exact) == [SourceRevisionMatch(bundleIdentifier: "org.example.app", version: "1", productType: "P",
                                                            operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))])
        let anyProduct = HKSourceRevision(source: Self.source, version: "1", productType: HKSourceRevisionAnyProductType,
                                          operatingSystemVersion: Self.six)
        #expect(Self.matches(anyProduct)?.first?.productType == nil)
        #expect(Self.matches(anyProduct)?.first?.operatingSystemVersion == SystemVersion(major: 6, minor: 1, patch: 0))
        let anySystem = HKSourceRevision(source: Self.source, version: "1", productType: "P",
                                         operatingSystemVersion: HKSourceRevisionAnyOperatingSystem)
        #expect(Self.matches(anySystem)?.first?.productType == "P")
        #expect(Self.matches(anySystem)?.first?.operatingSystemVersion == nil)
        let anyVersion = HKSourceRevision(source: Self.source, version: HKSourceRevisionAnyVersion, productType: "P",
                                          operatingSystemVersion: Self.six)
        #expect(Self.matches(anyVersion)?.first.map { $0.version == nil } == true)
    }

    @Test func aTwoArgumentRevisionAsksForNoParticularDevice() {
        let plain = HKSourceRevision(source: Self.source, version: "1")
        #expect(Self.matches(plain) == [SourceRevisionMatch(bundleIdentifier: "org.example.app", version: "1")])
    }

    /// A system version no system has (a negative part other than the constant's, a part past
    /// what the wire carries) matches nothing rather than failing the query.
    @Test func aSystemVersionNoSystemHasMatchesNothing() {
        for parts in [(-2, 0, 0), (6, -1, 0), (1_000_000_000, 0, 0)] {
            let revision = HKSourceRevision(source: Self.source, version: "1", productType: nil,
                                            operatingSystemVersion: OperatingSystemVersion(majorVersion: parts.0, minorVersion: parts.1,
                                                                                           patchVersion: parts.2))
            #expect(Self.matches(revision) == [], "\(parts)")
        }
    }

    /// A fetched revision is the broker's record, both ways.
    @Test func aFetchedRevisionCarriesTheRecordsProductTypeAndSystem() {
        let record = SourceRecord(bundleIdentifier: "a", name: "A", version: "1", productType: "x86_64",
                                  operatingSystemVersion: SystemVersion(major: 6, minor: 18, patch: 44))
        let revision = HKSourceRevision(record)
        #expect(revision.productType == "x86_64")
        #expect(revision.operatingSystemVersion.majorVersion == 6 && revision.operatingSystemVersion.minorVersion == 18
                && revision.operatingSystemVersion.patchVersion == 44)
        #expect(revision.record == record)
        let old = HKSourceRevision(SourceRecord(bundleIdentifier: "a", name: "A"))
        #expect(old.productType == nil && old.operatingSystemVersion.majorVersion == 0 && old.operatingSystemVersion.patchVersion == 0)
    }
}
