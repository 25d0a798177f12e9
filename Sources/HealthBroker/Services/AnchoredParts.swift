import HealthModel
import HealthWire

/// The parts of an anchored query, one per type: what the app's descriptors ask of each.
///
/// Checked here, from the request alone (never from who asks or what the store holds): every
/// descriptor names a sample type healthd knows with a predicate that compiles for it
/// (`SampleQuerySpec.checkChangeQuery`), and there is at least one. The descriptors are read as HealthKit's
/// union (`DescriptorUnion`, the SDK's rule for its sample and observer queries too): one part
/// per type whose predicate is any of its descriptors', so a sample two descriptors match, or
/// its deletion, is delivered once.
struct AnchoredParts {
    /// One per distinct type, in the order the app first named it.
    let descriptors: [TypePredicateSpec]

    init(_ requested: [TypePredicateSpec]) throws(HKError) {
        // `DescriptorUnion.checkedParts` (HealthModel): the `query-spec` fuzz target runs it too.
        let parts = try DescriptorUnion.checkedParts(requested.map { DescriptorUnion.Part(typeIdentifier: $0.typeIdentifier, predicate: $0.predicate) })
        descriptors = parts.map { TypePredicateSpec(typeIdentifier: $0.typeIdentifier, predicate: $0.predicate) }
    }

    var typeIdentifiers: [String] { descriptors.map(\.typeIdentifier) }

    /// What the anchor is bound to.
    var typeSet: Set<String> { Set(typeIdentifiers) }
}
