import Foundation
import HealthModel
import HealthWire

/// The sample-query family: the checks healthd makes of a request before any store work, called
/// here exactly as the broker calls them (they live in HealthModel for that: `SampleQuerySpec.check`,
/// `SampleQuerySpec.checkChangeQuery`, `DescriptorUnion.checkedParts`, `CorrelationQuerySpec.check`,
/// `HKObjectType.deletableSampleType`) — the type, the limit, the sort keys, the predicate as the
/// store compiles it (`canonicalized(for:)`), the union of an anchored query's descriptors.
/// Oracle: no trap, a request that passed its check passes it again, and a canonical predicate
/// canonicalizes again.
enum SampleQueryFuzz {
    static func samples(_ payload: [UInt8]) {
        guard let spec = try? SampleQuerySpec(wire: payload), (try? spec.check()) != nil else { return }
        guard (try? spec.check()) != nil else { violated("a sample query spec that passed its check did not again") }
        if HKObjectType.type(forIdentifier: spec.typeIdentifier) is HKCorrelationType {
            correlation(CorrelationQuerySpec(spec))
            return
        }
        recanonicalize(spec.typeIdentifier, spec.predicate)
    }

    static func anchored(_ payload: [UInt8]) {
        guard let spec = try? AnchoredQuerySpec(wire: payload) else { return }
        let requested = spec.descriptors.map { DescriptorUnion.Part(typeIdentifier: $0.typeIdentifier, predicate: $0.predicate) }
        guard let parts = try? DescriptorUnion.checkedParts(requested) else { return }
        guard parts.count <= requested.count, Set(parts.map(\.typeIdentifier)) == Set(requested.map(\.typeIdentifier)) else {
            violated("the union of \(requested.count) descriptors has \(parts.count) parts or other types")
        }
        // The union of descriptors that each passed the check passes it too.
        for part in parts {
            guard (try? SampleQuerySpec.checkChangeQuery(typeIdentifier: part.typeIdentifier, predicate: part.predicate)) != nil else {
                violated("the union predicate for \(part.typeIdentifier) does not compile where its descriptors did")
            }
        }
    }

    static func observer(_ payload: [UInt8]) {
        guard let spec = try? TypePredicateSpec(wire: payload),
              (try? SampleQuerySpec.checkChangeQuery(typeIdentifier: spec.typeIdentifier, predicate: spec.predicate)) != nil else { return }
        recanonicalize(spec.typeIdentifier, spec.predicate)
    }

    static func deletion(_ payload: [UInt8]) {
        guard let deletion = try? MatchingDeletion(wire: payload), (try? HKObjectType.deletableSampleType(deletion.typeIdentifier)) != nil
        else { return }
        recanonicalize(deletion.typeIdentifier, deletion.predicate)
    }

    static func verifiableRecords(_ payload: [UInt8]) {
        guard let spec = try? VerifiableRecordQuerySpec(wire: payload), (try? spec.validate()) != nil else { return }
        guard (try? spec.validate()) != nil else { violated("a verifiable record spec that validated did not again") }
        _ = spec.effectiveSourceTypes
    }

    static func correlation(_ payload: [UInt8]) {
        guard let spec = try? CorrelationQuerySpec(wire: payload) else { return }
        correlation(spec)
    }

    /// `CorrelationQuerySpec.check`, as `CorrelationService.check` runs it.
    static func correlation(_ spec: CorrelationQuerySpec) {
        guard (try? spec.check()) != nil, let canonical = try? spec.canonicalized() else { return }
        guard (try? spec.check()) != nil else { violated("a correlation spec that passed its check did not again") }
        guard (try? canonical.canonicalized()) != nil else { violated("a canonical correlation spec did not canonicalize again") }
    }

    /// The predicate as the store compiles it; what compiled once compiles again.
    static func recanonicalize(_ identifier: String, _ predicate: SamplePredicate?) {
        guard let type = HKObjectType.type(forIdentifier: identifier) as? HKSampleType, let predicate,
              let canonical = try? predicate.canonicalized(for: type) else { return }
        guard (try? canonical.canonicalized(for: type)) != nil else {
            violated("a canonical predicate for \(identifier) did not canonicalize again")
        }
        _ = canonical.conditionCount
    }
}
