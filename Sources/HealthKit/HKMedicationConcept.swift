public import Foundation
import HealthModel

/// HealthKit's `HKHealthConceptDomain` (iOS 26): the domain a concept identifier belongs to.
public struct HKHealthConceptDomain: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `HKHealthConceptDomainMedication`; the constant holds its own name (Apple does not
    /// document the string).
    public static let medication = HKHealthConceptDomain(rawValue: "HKHealthConceptDomainMedication")
}

/// HealthKit's `HKHealthConceptIdentifier` (iOS 26): identifies one concept within a domain.
/// Apple exposes only `domain`; two identifiers are equal when they name the same concept, which
/// is how apps relate a dose event to its medication (`HKMedicationDoseEvent.medicationConceptIdentifier
/// == medication.medication.identifier`) and how they pass one to a predicate.
public final class HKHealthConceptIdentifier: NSObject, NSCopying, @unchecked Sendable {
    public let domain: HKHealthConceptDomain
    /// The stored identifier (healthd's); not part of Apple's API.
    let underlyingIdentifier: String

    init(domain: HKHealthConceptDomain = .medication, underlyingIdentifier: String) {
        self.domain = domain
        self.underlyingIdentifier = underlyingIdentifier
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKHealthConceptIdentifier else { return false }
        return domain == other.domain && underlyingIdentifier == other.underlyingIdentifier
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(domain)
        hasher.combine(underlyingIdentifier)
        return hasher.finalize()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override var description: String { "\(domain.rawValue):\(underlyingIdentifier)" }
}

/// HealthKit's `HKClinicalCoding` (iOS 26): a code in a coding system, as FHIR's Coding.
public final class HKClinicalCoding: NSObject, NSCopying, @unchecked Sendable {
    public let system: String
    public let version: String?
    public let code: String

    public init(system: String, version: String?, code: String) {
        self.system = system
        self.version = version
        self.code = code
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKClinicalCoding else { return false }
        return system == other.system && version == other.version && code == other.code
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(system)
        hasher.combine(version)
        hasher.combine(code)
        return hasher.finalize()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// HealthKit's `HKMedicationGeneralForm` (iOS 26): the manufactured form of a medication.
public struct HKMedicationGeneralForm: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let capsule = HKMedicationGeneralForm(rawValue: "capsule")
    public static let cream = HKMedicationGeneralForm(rawValue: "cream")
    public static let device = HKMedicationGeneralForm(rawValue: "device")
    public static let drops = HKMedicationGeneralForm(rawValue: "drops")
    public static let foam = HKMedicationGeneralForm(rawValue: "foam")
    public static let gel = HKMedicationGeneralForm(rawValue: "gel")
    public static let inhaler = HKMedicationGeneralForm(rawValue: "inhaler")
    public static let injection = HKMedicationGeneralForm(rawValue: "injection")
    public static let liquid = HKMedicationGeneralForm(rawValue: "liquid")
    public static let lotion = HKMedicationGeneralForm(rawValue: "lotion")
    public static let ointment = HKMedicationGeneralForm(rawValue: "ointment")
    public static let patch = HKMedicationGeneralForm(rawValue: "patch")
    public static let powder = HKMedicationGeneralForm(rawValue: "powder")
    public static let spray = HKMedicationGeneralForm(rawValue: "spray")
    public static let suppository = HKMedicationGeneralForm(rawValue: "suppository")
    public static let tablet = HKMedicationGeneralForm(rawValue: "tablet")
    public static let topical = HKMedicationGeneralForm(rawValue: "topical")
    public static let unknown = HKMedicationGeneralForm(rawValue: "unknown")
}

/// HealthKit's `HKMedicationConcept` (iOS 26): the medication itself — its identifier, name,
/// form and clinical codings (RxNorm). Apps receive it inside `HKUserAnnotatedMedication`.
public final class HKMedicationConcept: NSObject, NSCopying, @unchecked Sendable {
    public let identifier: HKHealthConceptIdentifier
    public let displayText: String
    public let generalForm: HKMedicationGeneralForm
    public let relatedCodings: Set<HKClinicalCoding>

    init(_ value: UserAnnotatedMedicationValue) {
        identifier = HKHealthConceptIdentifier(underlyingIdentifier: value.conceptIdentifier)
        displayText = value.displayText
        generalForm = HKMedicationGeneralForm(rawValue: value.generalForm)
        relatedCodings = Set(value.relatedCodings.map { HKClinicalCoding(system: $0.system, version: $0.version, code: $0.code) })
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}
