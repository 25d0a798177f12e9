/// What each correlation type may hold and the checks a correlation passes before the broker
/// stores it (the SDK runs them early; the broker's run is the one that counts).
///
/// HealthKit's rules, as decided here:
/// - Blood pressure: exactly one systolic and one diastolic sample, each with the same start
///   and end date as the correlation (one reading, taken at one time).
/// - Food: one or more samples of dietary quantity types (`HKQuantityTypeIdentifierDietary…`),
///   each lying within the correlation's time span.
/// - No other sample kinds, no correlations inside correlations, and no
///   `HKMetadataKeySyncIdentifier` on a correlation or its samples (replacing a correlation
///   would have to replace its samples too, which the per-source upsert does not do).
public enum CorrelationRules {
    /// Most samples one correlation may hold: every dietary type twice over. Bounds what one
    /// save can carry beyond its sample count.
    public static let maxObjects = 100

    /// The types a correlation of `identifier` may hold, in registry order; empty for anything
    /// that is not a correlation type.
    public static func memberTypes(of identifier: String) -> [HKQuantityType] {
        switch HKCorrelationTypeIdentifier(rawValue: identifier) {
        case .bloodPressure:
            [HKQuantityType(.bloodPressureSystolic), HKQuantityType(.bloodPressureDiastolic)]
        case .food:
            HKObjectType.allTypes.compactMap { $0 as? HKQuantityType }.filter { $0.identifier.hasPrefix(dietaryPrefix) }
        default:
            []
        }
    }

    /// The identifiers of every type a correlation holding a sample of `identifier` may hold (the
    /// sample's own type included), in registry order; empty for a type no correlation holds.
    /// What a reader must be allowed to read to see such a correlation
    /// (`predicateForObjectsWithNoCorrelation()`). Every read resolves it (`readScope`), so it is
    /// a table built once rather than a walk of the registry.
    public static func correlatedTypes(of identifier: String) -> [String] {
        correlatedTypesByMember[identifier] ?? []
    }

    private static let correlatedTypesByMember: [String: [String]] = {
        var table: [String: [String]] = [:]
        for correlation in [HKCorrelationTypeIdentifier.bloodPressure, .food] {
            let members = memberTypes(of: correlation.rawValue).map(\.identifier)
            for member in members { table[member, default: []] += members }
        }
        return table
    }()

    private static let dietaryPrefix = "HKQuantityTypeIdentifierDietary"

    /// Checks the samples of `correlation` (of `type`) and returns them in canonical units, in order.
    static func canonicalizedObjects(_ objects: [SampleRecord], of correlation: SampleRecord,
                                     type: HKCorrelationType) throws(HKError) -> [SampleRecord] {
        let allowed = memberTypes(of: type.identifier)
        guard !objects.isEmpty else {
            throw HKError(.errorInvalidArgument, "\(type.identifier): a correlation needs at least one sample")
        }
        guard objects.count <= maxObjects else {
            throw HKError(.errorInvalidArgument, "\(type.identifier): a correlation holds at most \(maxObjects) samples")
        }
        if correlation.syncIdentity != nil || objects.contains(where: { $0.syncIdentity != nil }) {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): \(HKMetadataKeySyncIdentifier) is not supported on correlations or their samples")
        }
        var canonical: [SampleRecord] = []
        for (index, object) in objects.enumerated() {
            guard allowed.contains(where: { $0.identifier == object.typeIdentifier }) else {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier) cannot hold \(object.typeIdentifier.prefix(100)) (sample \(index + 1)); "
                              + "it holds \(allowedDescription(type))")
            }
            // A series is one sample with its own side row; HealthKit's correlations (blood
            // pressure, food) hold single readings, and the store links plain rows only.
            guard object.quantitySeries == nil else {
                throw HKError(.errorInvalidArgument, "\(type.identifier) cannot hold a quantity series (sample \(index + 1))")
            }
            do {
                canonical.append(try SampleValidator.canonicalized(object))
            } catch {
                throw HKError(error.code, "sample \(index + 1) of the correlation: \(error.message)")
            }
        }
        if HKCorrelationTypeIdentifier(rawValue: type.identifier) == .bloodPressure {
            try checkBloodPressure(canonical, of: correlation, type: type)
        } else {
            for object in canonical where object.startDate < correlation.startDate || object.endDate > correlation.endDate {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier): every sample must lie within the correlation's start and end dates")
            }
        }
        return canonical
    }

    private static func checkBloodPressure(_ objects: [SampleRecord], of correlation: SampleRecord,
                                           type: HKCorrelationType) throws(HKError) {
        let identifiers = objects.map(\.typeIdentifier).sorted()
        let expected = [HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue, HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue]
        guard identifiers == expected else {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier) holds exactly one systolic and one diastolic sample, got \(objects.count) "
                          + "(\(identifiers.map { $0.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "") }.joined(separator: ", ")))")
        }
        for object in objects where object.startDate != correlation.startDate || object.endDate != correlation.endDate {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): the systolic and diastolic samples must have the correlation's start and end dates")
        }
    }

    private static func allowedDescription(_ type: HKCorrelationType) -> String {
        HKCorrelationTypeIdentifier(rawValue: type.identifier) == .food
            ? "dietary quantity samples (\(dietaryPrefix)…)"
            : memberTypes(of: type.identifier).map(\.identifier).joined(separator: " and ")
    }
}
