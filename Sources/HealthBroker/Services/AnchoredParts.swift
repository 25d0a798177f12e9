import HealthModel
import HealthWire

/// The parts of an anchored query, one per type: what the app's descriptors ask of each.
///
/// Checked here, from the request alone (never from who asks or what the store holds): every
/// descriptor names a sample type healthd knows, and there is at least one. Several descriptors
/// of one type become one part whose predicate is any of theirs (a descriptor without a
/// predicate matches every addition), so a sample two descriptors match is delivered once, as
/// HealthKit's `queryDescriptors:` union does.
struct AnchoredParts {
    /// One per distinct type, in the order the app first named it.
    let descriptors: [TypePredicateSpec]

    init(_ requested: [TypePredicateSpec]) throws(HKError) {
        guard !requested.isEmpty else { throw HKError(.errorInvalidArgument, "an anchored query needs at least one query descriptor") }
        var order: [String] = []
        var predicates: [String: [SamplePredicate]?] = [:]
        for descriptor in requested {
            try ChangeQueries.checkSampleType(descriptor.typeIdentifier)
            guard let earlier = predicates[descriptor.typeIdentifier] else {
                order.append(descriptor.typeIdentifier)
                predicates[descriptor.typeIdentifier] = descriptor.predicate.map { [$0] }
                continue
            }
            // nil: a descriptor of this type matches everything; the part stays unfiltered.
            predicates[descriptor.typeIdentifier] = earlier.flatMap { list in descriptor.predicate.map { list + [$0] } }
        }
        descriptors = order.map { type in
            let list = predicates[type] ?? nil
            let predicate = list.map { $0.count == 1 ? $0[0] : SamplePredicate.or($0) }
            return TypePredicateSpec(typeIdentifier: type, predicate: predicate)
        }
    }

    var typeIdentifiers: [String] { descriptors.map(\.typeIdentifier) }

    /// What the anchor is bound to.
    var typeSet: Set<String> { Set(typeIdentifiers) }
}
