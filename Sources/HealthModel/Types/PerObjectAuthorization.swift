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
    public static let types: Set<String> = [HKVisionPrescriptionTypeIdentifier, HKDataTypeIdentifierUserAnnotatedMedicationConcept]

    /// Types read per document: the type-wide read grant (asked with `requestAuthorization`) lets
    /// the app's document queries offer the user the documents not yet decided on, and the app
    /// reads its own and those the user allowed, one by one. Apple: "The user is asked to
    /// authorize each CDA document the first time that document is returned by an
    /// HKDocumentQuery query. The user can change the access permissions in the Health app"
    /// (developer.apple.com/documentation/healthkit/hkcdadocumentsample/document). Read through the
    /// per-object grants (`ReadScope.ownAndGrantedObjects`), so every read path sees the same
    /// documents; a document not allowed is absent.
    public static let offeredTypes: Set<String> = [HKDocumentTypeIdentifier.CDA.rawValue]

    /// Whether the user's answers grant objects of `identifier` one by one (read per object, or
    /// offered per document).
    public static func grantsObjects(_ identifier: String) -> Bool {
        types.contains(identifier) || offeredTypes.contains(identifier)
    }

    /// Types whose objects an app reads through the grants of another per-object type: a dose
    /// event is readable with the medication it was logged for (iOS 26: "when a person
    /// authorizes a medication, your app can read that medication and its dose events", WWDC25
    /// "Meet the HealthKit Medications API"). No grant names a dose event itself; the
    /// visibility choke point finds them from the medication grants (`SampleSQL.grantedRows`).
    public static let readThroughGrants: [String: String] = [
        HKMedicationDoseEventTypeIdentifierMedicationDoseEvent: HKDataTypeIdentifierUserAnnotatedMedicationConcept,
    ]

    public static func isPerObject(_ identifier: String) -> Bool { types.contains(identifier) }

    /// Whether what an app reads of `identifier` is decided by per-object grants (its own, or
    /// those of the type it is read through) rather than by a type-wide read grant.
    public static func readsByObjectGrants(_ identifier: String) -> Bool {
        types.contains(identifier) || readThroughGrants[identifier] != nil
    }

    /// HealthKit's refusal of a type-wide read set naming a per-object type, or nil. A dose event
    /// type is refused as well: there is no type-wide read of it to ask for (Apple documents no
    /// behaviour here; asking for it type-wide would otherwise prompt for a grant that means nothing).
    public static func readRefusal(_ identifiers: some Sequence<String>) -> HKError? {
        let disallowed = Set(identifiers.filter(readsByObjectGrants)).sorted()
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
