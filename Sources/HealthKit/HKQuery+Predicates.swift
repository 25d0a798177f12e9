public import Foundation

/// HealthKit's predicate factory functions. Each returns an `SampleTreePredicate`; combine them
/// with `NSCompoundPredicate(andPredicateWithSubpredicates:)`, `orPredicateWithSubpredicates:`
/// and `notPredicateWithSubpredicate:`.
extension HKQuery {
    /// Samples in a time range. Without options, a sample matches when it overlaps the range;
    /// `.strictStartDate` / `.strictEndDate` require it to lie inside at that edge. A nil
    /// bound leaves that side open.
    public static func predicateForSamples(withStart startDate: Date?, end endDate: Date?,
                                           options: HKQueryOptions = []) -> NSPredicate {
        SampleTreePredicate(.dateRange(start: startDate, end: endDate,
                                     strictStart: options.contains(.strictStartDate),
                                     strictEnd: options.contains(.strictEndDate)))
    }

    public static func predicateForObject(with uuid: UUID) -> NSPredicate {
        SampleTreePredicate(.uuids([uuid]))
    }

    public static func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate {
        SampleTreePredicate(.uuids(uuids))
    }

    /// Objects saved by `source` (matched by bundle identifier).
    public static func predicateForObjects(from source: HKSource) -> NSPredicate {
        SampleTreePredicate(.sources([source.bundleIdentifier]))
    }

    public static func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
        SampleTreePredicate(.sources(Set(sources.map(\.bundleIdentifier))))
    }
}
