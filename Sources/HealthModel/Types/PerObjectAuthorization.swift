/// Which types are read per object, and HealthKit's refusal of a type-wide read request for them.
///
/// HealthKit (iOS 16): "If `requiresPerObjectAuthorization()` returns true, you must call
/// `requestPerObjectReadAuthorization(for:predicate:completion:)` each time you want to query for
/// the data type. The user can then select the individual samples that the app has permission to
/// read. The system always prompts the user" (developer.apple.com/documentation/healthkit/
/// hkobjecttype/requiresperobjectauthorization()); that page's Important note says that asking
/// for read access to such a type with `requestAuthorization(toShare:read:)` is refused, and
/// apps that do it get NSInvalidArgumentException "Authorization to read the following types is
/// disallowed: HKVisionPrescriptionTypeIdentifier". Here the same request fails with
/// `errorInvalidArgument` and that message, in the SDK before anything is sent and in healthd
/// before any prompt. Sharing (saving) the type is asked for the usual way.
public enum PerObjectAuthorization {
    /// The types whose objects are each granted on their own.
    public static let types: Set<String> = [HKVisionPrescriptionTypeIdentifier]

    public static func isPerObject(_ identifier: String) -> Bool { types.contains(identifier) }

    /// HealthKit's refusal of a type-wide read set naming a per-object type, or nil.
    public static func readRefusal(_ identifiers: some Sequence<String>) -> HKError? {
        let disallowed = Set(identifiers.filter(isPerObject)).sorted()
        guard !disallowed.isEmpty else { return nil }
        return HKError(.errorInvalidArgument, "Authorization to read the following types is disallowed: "
                       + disallowed.joined(separator: ", "))
    }
}

extension HKObjectType {
    /// HealthKit's `requiresPerObjectAuthorization()`: true for the vision prescription type.
    public func requiresPerObjectAuthorization() -> Bool {
        PerObjectAuthorization.isPerObject(identifier)
    }
}
