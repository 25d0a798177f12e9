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

    /// Objects recorded by one of these devices, as HealthKit's: equal to one of them in every
    /// property (`HKDevice`'s equality), so an unset property matches only unset.
    public static func predicateForObjects(from devices: Set<HKDevice>) -> NSPredicate {
        SampleTreePredicate(.devices(Set(devices.map(\.record))))
    }

    /// Objects saved by one of these source revisions, as HealthKit's: the bundle identifier, and
    /// the version, product type and operating system version each unless it is the `Any…`
    /// constant (`HKSourceRevisionAnyVersion`, `HKSourceRevisionAnyProductType`,
    /// `HKSourceRevisionAnyOperatingSystem`). A revision made with `init(source:version:)` —
    /// nil product type and 0.0.0, which Apple documents for query use — asks for no particular
    /// device: nil and 0.0.0 match any, as the `Any…` constants do. A system version with a
    /// part outside 0…999,999,999 other than the constant's names no system and matches nothing.
    public static func predicateForObjects(from sourceRevisions: Set<HKSourceRevision>) -> NSPredicate {
        let matches = sourceRevisions.compactMap { revision -> SourceRevisionMatch? in
            let system = revision.operatingSystemVersion
            let anySystem = system.majorVersion == HKSourceRevisionAnyOperatingSystem.majorVersion
                && system.minorVersion == HKSourceRevisionAnyOperatingSystem.minorVersion
                && system.patchVersion == HKSourceRevisionAnyOperatingSystem.patchVersion
            let stored = SystemVersion(major: system.majorVersion, minor: system.minorVersion, patch: system.patchVersion)
            var wanted: SystemVersion?
            if !anySystem, stored != .unrecorded {
                // Parts the wire carries are 0…999,999,999 (`SystemVersion(parsing:)`); no system has others.
                let parts = [system.majorVersion, system.minorVersion, system.patchVersion]
                guard parts.allSatisfy({ (0..<1_000_000_000).contains($0) }) else { return nil }
                wanted = stored
            }
            let product = revision.productType == HKSourceRevisionAnyProductType ? nil : revision.productType
            return SourceRevisionMatch(bundleIdentifier: revision.source.bundleIdentifier,
                                       version: revision.version == HKSourceRevisionAnyVersion ? nil : .some(revision.version),
                                       productType: product, operatingSystemVersion: wanted)
        }
        return SampleTreePredicate(.sourceRevisions(Set(matches)))
    }
}

/// The device, metadata, quantity and category predicates. Arguments HealthKit would reject
/// with an exception (an unknown device property, an operator other than the six
/// comparisons, a metadata value of another type) make a predicate that fails the query with
/// `errorInvalidArgument` when it runs.
extension HKQuery {
    /// Objects whose device has `key` (an `HKDevicePropertyKey…`) set to one of `allowedValues`.
    public static func predicateForObjects(withDeviceProperty key: String, allowedValues: Set<String>) -> NSPredicate {
        guard let property = DeviceProperty(rawValue: key) else {
            return UnusablePredicate(HKError(.errorInvalidArgument, "\(key.prefix(100)) is not an HKDevicePropertyKey"))
        }
        return SampleTreePredicate(.device(property, allowedValues: allowedValues))
    }

    /// Objects whose metadata has `key`.
    public static func predicateForObjects(withMetadataKey key: String) -> NSPredicate {
        SampleTreePredicate(.metadata(key: key, .exists))
    }

    /// Objects whose metadata value for `key` equals one of `allowedValues` (String, number,
    /// Bool, Date or HKQuantity; a value compares only with values of its own kind).
    public static func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
        do throws(HKError) {
            let values = try allowedValues.map { (value) throws(HKError) in try MetadataValue(any: value, key: key) }
            return SampleTreePredicate(.metadata(key: key, .oneOf(values)))
        } catch {
            return UnusablePredicate(error)
        }
    }

    /// Objects whose metadata value for `key` compares with `value` as `operatorType` says.
    public static func predicateForObjects(withMetadataKey key: String, operatorType: NSComparisonPredicate.Operator,
                                           value: Any) -> NSPredicate {
        do throws(HKError) {
            let op = try ComparisonOperator(translating: operatorType)
            return SampleTreePredicate(.metadata(key: key, .compare(op, try MetadataValue(any: value, key: key))))
        } catch {
            return UnusablePredicate(error)
        }
    }

    /// Quantity samples whose quantity compares with `quantity` as `operatorType` says. The
    /// broker converts `quantity` to the queried type's unit; a unit of another dimension fails
    /// the query with `errorInvalidArgument`.
    public static func predicateForQuantitySamples(with operatorType: NSComparisonPredicate.Operator,
                                                   quantity: HKQuantity) -> NSPredicate {
        do throws(HKError) {
            let op = try ComparisonOperator(translating: operatorType)
            return SampleTreePredicate(.quantity(op, value: quantity.doubleValue(for: quantity.unit), unit: quantity.unit.unitString))
        } catch {
            return UnusablePredicate(error)
        }
    }

    /// Category samples whose value compares with `value` as `operatorType` says.
    public static func predicateForCategorySamples(with operatorType: NSComparisonPredicate.Operator, value: Int) -> NSPredicate {
        do throws(HKError) {
            return SampleTreePredicate(.categoryValue(try ComparisonOperator(translating: operatorType), value))
        } catch {
            return UnusablePredicate(error)
        }
    }
}
