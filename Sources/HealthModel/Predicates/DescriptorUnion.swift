/// HealthKit's reading of several query descriptors: "samples that match any of the descriptors"
/// (developer.apple.com/documentation/healthkit/hksamplequery/init(querydescriptors:limit:
/// resultshandler:)) — a union, in which a sample two descriptors match is one sample.
///
/// A sample has exactly one type, so the union is one part per distinct type whose predicate is
/// any of that type's descriptors' (a descriptor without a predicate matches its whole type).
/// Every query over several descriptors — `HKSampleQuery(queryDescriptors:…)`,
/// `HKSampleQueryDescriptor` with several predicates, anchored queries and their descriptor,
/// observer queries — reads its descriptors through here, so each type is read once: no sample,
/// deletion or update can come twice, and a limit or sort over the union is a limit or sort over
/// distinct samples.
public enum DescriptorUnion {
    /// One type's share of the union.
    public struct Part: Hashable, Sendable {
        public var typeIdentifier: String
        public var predicate: SamplePredicate?

        public init(typeIdentifier: String, predicate: SamplePredicate?) {
            self.typeIdentifier = typeIdentifier
            self.predicate = predicate
        }
    }

    /// The descriptors as one part per type, in the order each type is first named. A type's
    /// predicates are kept once each, in the order given (`.or` of two or more).
    public static func parts(_ descriptors: [Part]) -> [Part] {
        var order: [String] = []
        var predicates: [String: [SamplePredicate]] = [:]
        // Types some descriptor names without a predicate: their part matches the whole type.
        var unfiltered: Set<String> = []
        for descriptor in descriptors {
            let type = descriptor.typeIdentifier
            if predicates[type] == nil && !unfiltered.contains(type) { order.append(type) }
            guard let predicate = descriptor.predicate else {
                unfiltered.insert(type)
                predicates[type] = []
                continue
            }
            if !unfiltered.contains(type), !(predicates[type]?.contains(predicate) ?? false) {
                predicates[type, default: []].append(predicate)
            }
        }
        return order.map { type in
            guard !unfiltered.contains(type), let list = predicates[type], let first = list.first else {
                return Part(typeIdentifier: type, predicate: nil)
            }
            return Part(typeIdentifier: type, predicate: list.count == 1 ? first : .or(list))
        }
    }

    /// Sample queries, one per descriptor and all of one sort and limit, as one per type of their
    /// union (the sort and limit kept): `SampleQueryMerge` then merges lists that share no sample.
    public static func specs(_ specs: [SampleQuerySpec]) -> [SampleQuerySpec] {
        guard let first = specs.first else { return [] }
        return parts(specs.map { Part(typeIdentifier: $0.typeIdentifier, predicate: $0.predicate) }).map { part in
            SampleQuerySpec(typeIdentifier: part.typeIdentifier, predicate: part.predicate, sort: first.sort, limit: first.limit)
        }
    }
}
