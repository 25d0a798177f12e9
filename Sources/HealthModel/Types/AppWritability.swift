/// Which types an app may never write, and the one refusal HealthKit gives for asking.
///
/// HealthKit checks a share set before it shows anything: a type in the set that apps may not
/// share raises `NSInvalidArgumentException` "Authorization to share the following types is
/// disallowed: …", naming every such type (HKHealthStore `_throwIfAuthorizationDisallowedForSharing:types:`,
/// the message seen by apps in the sources below). Here the same request fails with
/// `errorInvalidArgument` carrying that message, in the SDK before any call and in healthd before
/// any prompt. healthd also refuses an app's *save* of the Apple-computed and system types below
/// whatever the SDK did, so a hand-made frame cannot write them either; only trusted paths
/// (`healthctl import`, the manager) bring them in.
///
/// | identifier | why apps cannot share it | source |
/// | --- | --- | --- |
/// | HKCorrelationTypeIdentifierBloodPressure, …Food (every correlation type) | a correlation is authorized through the types it holds; saving one needs their share grants | [S1], [S2] |
/// | HKActivitySummaryTypeIdentifier | computed by the system from the ring samples | [S3] (`HKActivitySummaryType` is not an `HKSampleType`) |
/// | every characteristic type | set by the user in Health (here: `healthctl characteristics`) | [S3] (`toShare:` takes sample types only) |
/// | HKDataTypeIdentifierElectrocardiogram | recorded by the ECG app on Apple Watch only | [S4], [S5] |
/// | HKQuantityTypeIdentifierAppleExerciseTime | Apple-computed activity ring | [S5], [S6] |
/// | HKQuantityTypeIdentifierAppleStandTime | Apple-computed | [S5] |
/// | HKQuantityTypeIdentifierAppleMoveTime | Apple-computed activity ring | [S5] |
/// | HKCategoryTypeIdentifierAppleStandHour | Apple-computed activity ring | [S5] |
/// | HKQuantityTypeIdentifierWalkingHeartRateAverage | estimated by Apple Watch | [S5], [S6], [S7] |
/// | HKQuantityTypeIdentifierAppleWalkingSteadiness | estimated by iPhone | [S5] |
/// | HKCategoryTypeIdentifierAppleWalkingSteadinessEvent | Apple notification | [S8] |
/// | HKQuantityTypeIdentifierAppleSleepingWristTemperature | estimated by Apple Watch | [S5], [S9] |
/// | HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances | estimated by Apple Watch | [S5] |
/// | HKQuantityTypeIdentifierAtrialFibrillationBurden | AFib History feature | [S5] |
/// | HKQuantityTypeIdentifierNikeFuel | deprecated Nike+ metric, read-only | [S5] |
/// | HKCategoryTypeIdentifierHighHeartRateEvent, LowHeartRateEvent, IrregularHeartRhythmEvent | Apple Watch heart notifications | [S5] |
/// | HKCategoryTypeIdentifierLowCardioFitnessEvent | Apple Watch notification | [S5] |
/// | HKCategoryTypeIdentifierHypertensionEvent | Apple Watch notification (iOS 26.2) | [S10] |
/// | HKCategoryTypeIdentifierSleepApneaEvent | Apple Watch breathing-disturbance notification | [S5] |
/// | every clinical type (HKClinicalTypeIdentifier…Record) | downloaded from healthcare institutions; read-only | [S11], [S12] |
///
/// - [S1] developer.apple.com/forums/thread/694311 and github.com/EddyVerbruggen/HealthKit/issues/106:
///   "Authorization to share the following types is disallowed: HKCorrelationTypeIdentifierBloodPressure".
/// - [S2] developer.apple.com/documentation/healthkit/hkcorrelationtype: correlation types are used
///   to request permission for the matching quantity samples.
/// - [S3] developer.apple.com/documentation/healthkit/hkhealthstore/requestauthorization(toshare:read:completion:):
///   `typesToShare: Set<HKSampleType>?`.
/// - [S4] developer.apple.com/documentation/healthkit/hkelectrocardiogram: ECG samples are read-only.
/// - [S5] kingstinct/react-native-healthkit `QuantityTypeIdentifierReadOnly` / `CategoryTypeIdentifierReadOnly`
///   (src/types/QuantityTypeIdentifier.ts, CategoryTypeIdentifier.ts), each linking Apple's page.
/// - [S6] public apps' workarounds for the exception ("Authorization to share the following types is
///   disallowed: HKQuantityTypeIdentifierWalkingHeartRateAverage"), skipping AppleExerciseTime too.
/// - [S7] developer.apple.com/documentation/healthkit/hkquantitytypeidentifier/walkingheartrateaverage:
///   "Apple Watch estimates the walking heart rate…".
/// - [S8] developer.apple.com/documentation/healthkit/hkcategorytypeidentifier/applewalkingsteadinessevent:
///   "Walking Steadiness events are read-only. You can request permission to read the samples …,
///   but you can't request authorization to share them."
/// - [S9] a public app's note (iOS 27 device): sharing appleSleepingWristTemperature raises the exception.
/// - [S10] spec/healthkit/category_types.tsv (iOS 26.2 release notes: read-only notifications).
/// - [S11] developer.apple.com/documentation/healthkit/accessing-health-records: "clinical records are
///   read-only, so you can't request authorization to share clinical types".
/// - [S12] github.com/EddyVerbruggen/HealthKit/issues/106: "Authorization to share the following types is
///   disallowed: HKClinicalTypeIdentifierProcedureRecord, …".
public enum AppWritability {
    /// Sample types the system computes or records itself: no app may share or save them.
    public static let systemComputed: Set<String> = [
        HKQuantityTypeIdentifier.appleExerciseTime.rawValue,
        HKQuantityTypeIdentifier.appleStandTime.rawValue,
        HKQuantityTypeIdentifier.appleMoveTime.rawValue,
        HKCategoryTypeIdentifier.appleStandHour.rawValue,
        HKQuantityTypeIdentifier.walkingHeartRateAverage.rawValue,
        HKQuantityTypeIdentifier.appleWalkingSteadiness.rawValue,
        HKCategoryTypeIdentifier.appleWalkingSteadinessEvent.rawValue,
        HKQuantityTypeIdentifier.appleSleepingWristTemperature.rawValue,
        HKQuantityTypeIdentifier.appleSleepingBreathingDisturbances.rawValue,
        HKQuantityTypeIdentifier.atrialFibrillationBurden.rawValue,
        HKQuantityTypeIdentifier.nikeFuel.rawValue,
        HKCategoryTypeIdentifier.highHeartRateEvent.rawValue,
        HKCategoryTypeIdentifier.lowHeartRateEvent.rawValue,
        HKCategoryTypeIdentifier.irregularHeartRhythmEvent.rawValue,
        HKCategoryTypeIdentifier.lowCardioFitnessEvent.rawValue,
        HKCategoryTypeIdentifier.hypertensionEvent.rawValue,
        HKCategoryTypeIdentifier.sleepApneaEvent.rawValue,
        electrocardiogramTypeIdentifier,
    ]

    /// Types only the user enters, in the Health app (here `healthctl medications`): the
    /// medications API is read-only for apps (iOS 26; WWDC25 "Meet the HealthKit Medications
    /// API": apps read medications and dose events, the Health app writes them). Apple documents
    /// no share refusal message for them; the one above is used, as for every read-only type.
    public static let userEntered: Set<String> = [
        HKMedicationDoseEventTypeIdentifierMedicationDoseEvent,
        HKDataTypeIdentifierUserAnnotatedMedicationConcept,
    ]

    /// HKElectrocardiogramType's identifier (`HKElectrocardiogramTypeIdentifier`).
    public static let electrocardiogramTypeIdentifier = HKElectrocardiogramTypeIdentifier

    /// Whether a share (write) *request* may name `identifier`. False for everything in the table
    /// above: the system-computed types, correlation types, the activity summary type, the
    /// characteristic types and the clinical types. Unknown identifiers are not this rule's business (true).
    public static func isShareable(_ identifier: String) -> Bool {
        if systemComputed.contains(identifier) || userEntered.contains(identifier) { return false }
        guard let type = HKObjectType.type(forIdentifier: identifier) else { return true }
        return type is HKSampleType && !(type is HKCorrelationType) && !(type is HKActivitySummaryType) && !(type is HKClinicalType)
    }

    /// Whether an app may *save* objects of `identifier`. A correlation may be saved (with share
    /// grants for the types it holds, as in HealthKit), so only the types no app ever writes are
    /// refused here.
    public static func isSavableByApps(_ identifier: String) -> Bool {
        if systemComputed.contains(identifier) || userEntered.contains(identifier) { return false }
        guard let type = HKObjectType.type(forIdentifier: identifier) else { return true }
        return type is HKSampleType && !(type is HKActivitySummaryType) && !(type is HKClinicalType)
    }

    /// HealthKit's refusal of a share set, naming every type in it that apps may not share
    /// (sorted, so the message does not depend on set order), or nil when there is none.
    public static func shareRefusal(_ identifiers: some Sequence<String>) -> HKError? {
        let disallowed = Set(identifiers.filter { !isShareable($0) }).sorted()
        guard !disallowed.isEmpty else { return nil }
        return HKError(.errorInvalidArgument, "Authorization to share the following types is disallowed: " + listed(disallowed))
    }

    /// The refusal of an app's save holding objects no app may write, or nil.
    public static func saveRefusal(_ identifiers: some Sequence<String>) -> HKError? {
        let refused = Set(identifiers.filter { !isSavableByApps($0) }).sorted()
        guard !refused.isEmpty else { return nil }
        return HKError(.errorInvalidArgument, "apps may not save the following types, which the system computes or the user sets: "
                       + listed(refused))
    }

    /// The identifiers for a message, bounded: an app can send 512 made-up ones.
    private static func listed(_ identifiers: [String]) -> String {
        let shown = identifiers.prefix(20).map { String($0.prefix(100)) }.joined(separator: ", ")
        return identifiers.count > 20 ? shown + " and \(identifiers.count - 20) more" : shown
    }
}
