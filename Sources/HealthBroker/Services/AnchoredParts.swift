import HealthModel
import HealthWire

/// The parts of an anchored query, one per type: what the app's descriptors ask of each.
///
/// Checked here, from the request alone (never from who asks or what the store holds): every
/// descriptor names a sample type healthd knows with a predicate that compiles for it
/// (`ChangeQueries.check`), and there is at least one. Several descriptors
/// of one type become one part whose predicate is any of theirs (a descriptor without a
/// predicate matches every addition), so a sample two descriptors match is delivered once, as
/// HealthKit's `queryDescriptors:` union does.
struct AnchoredParts {
    /// One per distinct type, in the order the app first named it.
    let descriptors: [TypePredicateSpec]

    init(_ requested: [TypePredicateSpec]) throws(HKError) {
        guard !requested.isEmpty else { throw HKError(.errorInvalidArgument, "an anchored query needs at least one query descriptor") }
        var order: [String] = []
        var predicates: [String: [SamplePredicate]] = [:]
        // Types some descriptor names without a predicate: their part matches every addition.
        var unfiltered: Set<String> = []
        for descriptor in requested {
            try ChangeQueries.check(descriptor)
            if predicates[descriptor.typeIdentifier] == nil && !unfiltered.contains(descriptor.typeIdentifier) {
                order.append(descriptor.typeIdentifier)
            }
            if let predicate = descriptor.predicate {
                predicates[descriptor.typeIdentifier, default: []].append(predicate)
            } else {
                unfiltered.insert(descriptor.typeIdentifier)
            }
        }
        descriptors = order.map { type in
            guard !unfiltered.contains(type), let list = predicates[type], let first = list.first else {
                return TypePredicateSpec(typeIdentifier: type)
            }
            return TypePredicateSpec(typeIdentifier: type, predicate: list.count == 1 ? first : .or(list))
        }
    }

    var typeIdentifiers: [String] { descriptors.map(\.typeIdentifier) }

    /// What the anchor is bound to.
    var typeSet: Set<String> { Set(typeIdentifiers) }
}
