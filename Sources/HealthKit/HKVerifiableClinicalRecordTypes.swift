public import Foundation
import HealthModel

/// HealthKit's `HKVerifiableClinicalRecordSourceType` (iOS 15.4): the format of a record.
/// Apple documents the constants, not their strings; the raw values are ours
/// (`VerifiableRecordSourceType`).
public struct HKVerifiableClinicalRecordSourceType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let smartHealthCard = HKVerifiableClinicalRecordSourceType(rawValue: VerifiableRecordSourceType.smartHealthCard)
    public static let euDigitalCOVIDCertificate = HKVerifiableClinicalRecordSourceType(
        rawValue: VerifiableRecordSourceType.euDigitalCOVIDCertificate)
}

/// HealthKit's `HKVerifiableClinicalRecordCredentialType` (iOS 15.4): what a record attests, and
/// the strings a query's `recordTypes` names. The raw values are the SMART Health Cards type
/// URIs (`VerifiableRecordCredentialType`), which is what a card's `vc.type` holds.
public struct HKVerifiableClinicalRecordCredentialType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let covid19 = HKVerifiableClinicalRecordCredentialType(rawValue: VerifiableRecordCredentialType.covid19)
    public static let immunization = HKVerifiableClinicalRecordCredentialType(rawValue: VerifiableRecordCredentialType.immunization)
    public static let laboratory = HKVerifiableClinicalRecordCredentialType(rawValue: VerifiableRecordCredentialType.laboratory)
    public static let recovery = HKVerifiableClinicalRecordCredentialType(rawValue: VerifiableRecordCredentialType.recovery)
}

/// HealthKit's `HKVerifiableClinicalRecordSubject` (iOS 15): whom a record is about, as the card
/// names them. NSSecureCoding, as Apple's.
public final class HKVerifiableClinicalRecordSubject: NSObject, NSSecureCoding, @unchecked Sendable {
    public let fullName: String
    /// The FHIR birth date's components: year, and month and day when the card gives them.
    public let dateOfBirthComponents: DateComponents?

    init(fullName: String, birthDate: String) {
        self.fullName = fullName
        dateOfBirthComponents = Self.components(birthDate)
        super.init()
    }

    /// "YYYY", "YYYY-MM" or "YYYY-MM-DD" as date components; nil for anything else.
    static func components(_ birthDate: String) -> DateComponents? {
        let parts = birthDate.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let year = Int(parts[0]), parts[0].count == 4 else { return nil }
        var components = DateComponents(calendar: Calendar(identifier: .gregorian), year: year)
        if parts.count > 1 { guard let month = Int(parts[1]), (1...12).contains(month) else { return nil }; components.month = month }
        if parts.count > 2 { guard let day = Int(parts[2]), (1...31).contains(day) else { return nil }; components.day = day }
        return components
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(fullName as NSString, forKey: "fullName")
        if let components = dateOfBirthComponents, let year = components.year {
            let text = [year, components.month, components.day].compactMap { $0 }.map { String(format: $0 == year ? "%04d" : "%02d", $0) }
                .joined(separator: "-")
            coder.encode(text as NSString, forKey: "birthDate")
        }
    }

    public required convenience init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "fullName") else { return nil }
        let birthDate = coder.decodeObject(of: NSString.self, forKey: "birthDate").map { String($0) } ?? ""
        self.init(fullName: String(name), birthDate: birthDate)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKVerifiableClinicalRecordSubject else { return false }
        return other.fullName == fullName && other.dateOfBirthComponents == dateOfBirthComponents
    }

    public override var hash: Int { fullName.hashValue }
}
