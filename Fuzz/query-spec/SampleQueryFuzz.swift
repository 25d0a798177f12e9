import Foundation
import HealthModel
import HealthWire

/// The sample-query family: the checks healthd makes of a request before any store work, which
/// live in the broker (`SampleQueries.check`, `ChangeQueries.check`, `AnchoredParts`,
/// `CorrelationService.check`, `DeletionService.checkDeletable`) and are mirrored here from
/// their HealthModel parts — the type, the limit, the sort keys (`checkSort`), the predicate as
/// the store compiles it (`canonicalized(for:)`), the union of an anchored query's descriptors
/// (`DescriptorUnion`). Oracle: no trap, and a canonical predicate canonicalizes again.
enum SampleQueryFuzz {
    static func samples(_ payload: [UInt8]) {
        guard let spec = try? SampleQuerySpec(wire: payload), sampleType(spec.typeIdentifier) != nil, spec.limit >= 0 else { return }
        guard (try? spec.checkSort()) != nil else { return }
        if HKObjectType.type(forIdentifier: spec.typeIdentifier) is HKCorrelationType {
            checkCorrelation(CorrelationQuerySpec(spec))
            return
        }
        recanonicalize(spec.typeIdentifier, spec.predicate)
    }

    static func anchored(_ payload: [UInt8]) {
        guard let spec = try? AnchoredQuerySpec(wire: payload), !spec.descriptors.isEmpty else { return }
        for descriptor in spec.descriptors {
            guard sampleType(descriptor.typeIdentifier) != nil,
                  (try? SampleQuerySpec(typeIdentifier: descriptor.typeIdentifier, predicate: descriptor.predicate).canonicalPredicate()) != nil
            else { return }
        }
        let parts = DescriptorUnion.parts(spec.descriptors.map { DescriptorUnion.Part(typeIdentifier: $0.typeIdentifier, predicate: $0.predicate) })
        guard parts.count <= spec.descriptors.count, Set(parts.map(\.typeIdentifier)) == Set(spec.descriptors.map(\.typeIdentifier)) else {
            violated("the union of \(spec.descriptors.count) descriptors has \(parts.count) parts or other types")
        }
        // The union of predicates that each compile for their type compiles too.
        for part in parts {
            guard (try? SampleQuerySpec(typeIdentifier: part.typeIdentifier, predicate: part.predicate).canonicalPredicate()) != nil else {
                violated("the union predicate for \(part.typeIdentifier) does not compile where its descriptors did")
            }
        }
    }

    static func observer(_ payload: [UInt8]) {
        guard let spec = try? TypePredicateSpec(wire: payload), sampleType(spec.typeIdentifier) != nil else { return }
        recanonicalize(spec.typeIdentifier, spec.predicate)
    }

    static func deletion(_ payload: [UInt8]) {
        guard let deletion = try? MatchingDeletion(wire: payload), sampleType(deletion.typeIdentifier) != nil else { return }
        recanonicalize(deletion.typeIdentifier, deletion.predicate)
    }

    static func verifiableRecords(_ payload: [UInt8]) {
        guard let spec = try? VerifiableRecordQuerySpec(wire: payload), (try? spec.validate()) != nil else { return }
        guard (try? spec.validate()) != nil else { violated("a verifiable record spec that validated did not again") }
        _ = spec.effectiveSourceTypes
    }

    static func correlation(_ payload: [UInt8]) {
        guard let spec = try? CorrelationQuerySpec(wire: payload) else { return }
        checkCorrelation(spec)
    }

    /// `CorrelationService.check`'s HealthModel parts.
    static func checkCorrelation(_ spec: CorrelationQuerySpec) {
        guard HKObjectType.type(forIdentifier: spec.typeIdentifier) is HKCorrelationType, spec.limit >= 0 else { return }
        let allowed = Set(CorrelationRules.memberTypes(of: spec.typeIdentifier).map(\.identifier))
        guard spec.objectPredicates.keys.allSatisfy(allowed.contains), let canonical = try? spec.canonicalized() else { return }
        guard (try? canonical.canonicalized()) != nil else { violated("a canonical correlation spec did not canonicalize again") }
    }

    static func sampleType(_ identifier: String) -> HKSampleType? {
        HKObjectType.type(forIdentifier: identifier) as? HKSampleType
    }

    /// The predicate as the store compiles it; what compiled once compiles again.
    static func recanonicalize(_ identifier: String, _ predicate: SamplePredicate?) {
        guard let type = sampleType(identifier), let predicate, let canonical = try? predicate.canonicalized(for: type) else { return }
        guard (try? canonical.canonicalized(for: type)) != nil else {
            violated("a canonical predicate for \(identifier) did not canonicalize again")
        }
        _ = canonical.conditionCount
    }
}
