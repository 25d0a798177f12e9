public import Foundation

/// HealthKit's query predicates as a serializable tree (the SDK builds it from the
/// `HKQuery.predicateFor…` functions and `NSCompoundPredicate`; the broker evaluates it in SQL).
public indirect enum SamplePredicate: Hashable, Sendable {
    /// `predicateForSamples(withStart:end:options:)`. Without strict options a sample matches
    /// when it ends at or after `start` and starts before `end` (HealthKit's overlap rule).
    case dateRange(start: Date?, end: Date?, strictStart: Bool, strictEnd: Bool)
    case uuids(Set<UUID>)
    /// Samples saved by these apps (bundle identifiers).
    case sources(Set<String>)
    case and([SamplePredicate])
    case or([SamplePredicate])
    case not(SamplePredicate)
    /// `predicateForObjects(from: workout)`: the samples associated with the workout with this
    /// UUID (added with `add(_:to:)`, and its route).
    case workout(UUID)
    /// `predicateForWorkouts(with:)`: workouts of this `HKWorkoutActivityType` raw value.
    case workoutActivityType(UInt)
    /// `predicateForObjects(withDeviceProperty:allowedValues:)`: the object's device has the
    /// property set to one of the values (exact, case-sensitive). No device, or the property
    /// unset: no match.
    case device(DeviceProperty, allowedValues: Set<String>)
    /// `predicateForObjects(withMetadataKey:…)`.
    case metadata(key: String, MetadataTest)
    /// `predicateForQuantitySamples(with:quantity:)`. Queries convert the quantity to the
    /// queried type's canonical unit first (`canonicalized(for:)`).
    case quantity(ComparisonOperator, value: Double, unit: String)
    /// `predicateForCategorySamples(with:value:)`: the category value compared with `value`.
    case categoryValue(ComparisonOperator, Int)
    /// `predicateForObjects(from: Set<HKSourceRevision>)`: objects saved by one of these apps at
    /// the given version (`nil` version: any).
    case sourceRevisions(Set<SourceRevisionMatch>)
    /// `predicateForObjects(from: Set<HKDevice>)`: objects whose device equals one of these in
    /// every property (unset ones included), as HKDevice's equality.
    case devices(Set<DeviceRecord>)
    /// `predicateForObjectsWithNoCorrelation()`: objects that no correlation the reader can see
    /// holds. A correlation hidden from the reader (another app's, without read permission for
    /// every type it may hold) counts as absent, so its samples match.
    case noCorrelation
    /// `predicateForStatesOfMind…`: states of mind passing the test; no other sample matches.
    case stateOfMind(StateOfMindTest)
    /// `predicateForClinicalRecords(withFHIRResourceType:)` (identifier nil) and the resource
    /// part of `predicateForClinicalRecords(from:fhirResourceType:identifier:)`: clinical records
    /// whose FHIR resource has this `resourceType` (and `id`); no other sample matches.
    case fhirResource(resourceType: String, identifier: String?)
    /// The workout predicates on totals, statistics and activities (issue 15): workouts passing
    /// the test; no other sample matches.
    case workoutValue(WorkoutTest)
    /// `predicateForCategorySamples(equalTo:)`: category samples whose value is one of these.
    case categoryValues(Set<Int>)
    /// `predicateForElectrocardiograms(classification:)` / `(symptomsStatus:)`; no other sample matches.
    case electrocardiogram(ElectrocardiogramTest)
    /// `predicateForWorkoutEffortSamplesRelated(workout:activity:)`: effort samples related to
    /// the workout with this UUID (with `activity` set, to that activity of it) by
    /// `relateWorkoutEffortSample`. A workout the reader cannot see relates nothing.
    case workoutEffort(workout: UUID, activity: UUID?)
    /// The medication predicates (iOS 26): medications or dose events passing the test; no
    /// other sample matches.
    case medication(MedicationTest)

    /// Whether `record` matches. The reference semantics: the broker's SQL must agree with it.
    public func matches(_ record: SampleRecord) -> Bool {
        switch self {
        case let .dateRange(start, end, strictStart, strictEnd):
            if let start {
                if strictStart ? record.startDate < start : record.endDate < start { return false }
            }
            if let end {
                if strictEnd ? record.endDate >= end : record.startDate >= end { return false }
            }
            return true
        case let .uuids(uuids):
            return uuids.contains(record.uuid)
        case let .sources(bundles):
            return record.source.map { bundles.contains($0.bundleIdentifier) } ?? false
        case let .devices(devices):
            return record.device.map(devices.contains) ?? false
        case let .sourceRevisions(revisions):
            guard let source = record.source else { return false }
            return revisions.contains { $0.matches(source) }
        case let .and(operands):
            return operands.allSatisfy { $0.matches(record) }
        case let .or(operands):
            return operands.contains { $0.matches(record) }
        case let .not(operand):
            return !operand.matches(record)
        case .workout, .noCorrelation, .workoutEffort:
            // Associations and correlation membership live in the store, not in the record:
            // only the broker can decide.
            return false
        case let .workoutActivityType(activityType):
            guard case let .workout(workout) = record.value else { return false }
            return workout.activityType == activityType
        case let .device(property, allowed):
            return record.device.flatMap(property.value(of:)).map(allowed.contains) ?? false
        case let .metadata(key, test):
            return test.matches(record.metadata[key])
        case let .quantity(op, value, unit):
            guard case let .quantity(stored, storedUnit) = record.value,
                  let converted = try? HKQuantity(unit: HKUnit.parse(unit), doubleValue: value).value(in: HKUnit.parse(storedUnit))
            else { return false }
            return op.evaluate(stored, converted)
        case let .categoryValue(op, value):
            guard case let .category(stored) = record.value else { return false }
            return op.evaluate(stored, value)
        case let .stateOfMind(test):
            guard case let .stateOfMind(stored) = record.value else { return false }
            return test.matches(stored)
        case let .fhirResource(resourceType, identifier):
            guard case let .clinicalRecord(stored) = record.value else { return false }
            return stored.resourceType == resourceType && identifier.map { $0 == stored.identifier } ?? true
        case let .workoutValue(test):
            guard case let .workout(workout) = record.value else { return false }
            return test.matches(workout)
        case let .categoryValues(values):
            guard case let .category(stored) = record.value else { return false }
            return values.contains(stored)
        case let .electrocardiogram(test):
            guard case let .electrocardiogram(stored) = record.value else { return false }
            return test.matches(stored)
        case let .medication(test):
            return test.matches(record.value)
        }
    }
}

/// `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending:)` as a value.
public struct SampleSort: Hashable, Sendable {
    public enum Key: Hashable, Sendable {
        case startDate, endDate
        /// `HKWorkoutSortIdentifierDuration`, `…TotalDistance` and the other workout totals:
        /// workout queries only (`SampleQuerySpec.checkSort`).
        case workout(WorkoutTotal)
    }
    public var key: Key
    public var ascending: Bool

    public init(_ key: Key, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }
}

/// An HKSampleQuery as a value: type, predicate, sort and limit (0 = HKObjectQueryNoLimit).
public struct SampleQuerySpec: Hashable, Sendable {
    public var typeIdentifier: String
    public var predicate: SamplePredicate?
    public var sort: [SampleSort]
    public var limit: Int

    public init(typeIdentifier: String, predicate: SamplePredicate? = nil, sort: [SampleSort] = [], limit: Int = 0) {
        self.typeIdentifier = typeIdentifier
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}

/// One source revision a predicate selects: the app's bundle identifier and, unless any version
/// will do, the exact version its objects were saved at (which may be none); likewise the product
/// type and system version they were saved on, unless any will do.
public struct SourceRevisionMatch: Hashable, Sendable {
    public var bundleIdentifier: String
    /// nil: any version. `.some(nil)`: objects saved without a version.
    public var version: String??
    /// nil: any product type; otherwise objects saved on exactly this one ("": none recorded).
    public var productType: String?
    /// nil: any system; otherwise objects saved on exactly this version (0.0.0: not recorded).
    public var operatingSystemVersion: SystemVersion?

    public init(bundleIdentifier: String, version: String??, productType: String? = nil,
                operatingSystemVersion: SystemVersion? = nil) {
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.productType = productType
        self.operatingSystemVersion = operatingSystemVersion
    }

    /// Whether an object saved under `source` is one this match selects (the in-memory rule;
    /// `SampleSQL` compiles the same rule for the store).
    public func matches(_ source: SourceRecord) -> Bool {
        bundleIdentifier == source.bundleIdentifier
            && version.map { $0 == source.version } ?? true
            && productType.map { $0 == (source.productType ?? "") } ?? true
            && operatingSystemVersion.map { $0 == source.operatingSystemVersion } ?? true
    }
}
