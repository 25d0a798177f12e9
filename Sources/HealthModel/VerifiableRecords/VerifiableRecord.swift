public import Foundation

/// A verifiable clinical record (HealthKit's `HKVerifiableClinicalRecord`, iOS 15): one SMART
/// Health Card the user imported (`healthctl verifiable-records import`), with the fields healthd
/// read from it at import (`SmartHealthCard`) and the card itself (`dataRepresentation`, the
/// compact JWS as issued, so an app can check the issuer's signature itself, as Apple's article
/// "Accessing data from a SMART Health Card" has it).
///
/// Not a sample of the sample store: it has no type an app can be granted, no source, and it is
/// read only through `HKVerifiableClinicalRecordQuery`, one-time, the user choosing each record.
public struct VerifiableRecord: Sendable, Equatable {
    /// Whether healthd checked the card's signature when it was imported. Kept for the user
    /// (`healthctl verifiable-records list`); never sent to an app, which verifies for itself.
    public enum Verification: String, Sendable, Equatable {
        /// The signature was checked with a key of the issuer's JWKS given at import.
        case verified
        /// No key of the issuer was given at import: nothing was checked.
        case unverified
    }

    public var uuid: UUID
    /// `HKVerifiableClinicalRecordSourceType`'s raw value (`VerifiableRecordSourceType`).
    public var sourceType: String
    /// The credential's `vc.type` URIs, e.g. "https://smarthealth.cards#immunization".
    public var recordTypes: [String]
    /// The JWS payload's `iss`: the issuer's URL.
    public var issuerIdentifier: String
    public var subjectFullName: String
    /// The FHIR Patient's `birthDate` as written (YYYY, YYYY-MM or YYYY-MM-DD); empty if none.
    public var subjectBirthDate: String
    /// The payload's `nbf` (when the card was issued).
    public var issuedDate: Date
    /// The date the record is about: the newest occurrence or effective date of its entries,
    /// else the issue date.
    public var relevantDate: Date
    /// The payload's `exp`, if any.
    public var expirationDate: Date?
    /// A display name per entry (vaccine or test), as the Health app lists them.
    public var itemNames: [String]
    public var dataRepresentation: [UInt8]
    /// The manager's view only: nil in what an app receives.
    public var verification: Verification?
    /// The manager's view only: nil in what an app receives.
    public var importedDate: Date?

    public init(uuid: UUID, sourceType: String, recordTypes: [String], issuerIdentifier: String, subjectFullName: String,
                subjectBirthDate: String, issuedDate: Date, relevantDate: Date, expirationDate: Date?, itemNames: [String],
                dataRepresentation: [UInt8], verification: Verification? = nil, importedDate: Date? = nil) {
        self.uuid = uuid
        self.sourceType = sourceType
        self.recordTypes = recordTypes
        self.issuerIdentifier = issuerIdentifier
        self.subjectFullName = subjectFullName
        self.subjectBirthDate = subjectBirthDate
        self.issuedDate = issuedDate
        self.relevantDate = relevantDate
        self.expirationDate = expirationDate
        self.itemNames = itemNames
        self.dataRepresentation = dataRepresentation
        self.verification = verification
        self.importedDate = importedDate
    }

    /// What an app receives: the record without the manager's fields.
    public var sharedWithApp: VerifiableRecord {
        var shared = self
        shared.verification = nil
        shared.importedDate = nil
        return shared
    }

    /// What the manager's listings carry (`healthctl verifiable-records import/list`,
    /// `object-requests`): the record without its card (`dataRepresentation` empty). Only an app
    /// the user shares the record with receives the JWS; a listing of summaries stays small
    /// whatever the cards (`SmartHealthCardLimits.maxItemNameBytes`).
    public var summary: VerifiableRecord {
        var summary = self
        summary.dataRepresentation = []
        return summary
    }

    /// The first field whose text holds a character no record may hold (a control, bidirectional
    /// or separator character, `TerminalControlCharacters`), nil when none does. The card reader
    /// refuses such cards; a record stored before it did is never offered to an app, and is listed
    /// to the manager with those characters escaped (`escapingUnsafeText`) so it can be deleted.
    public var unsafeTextField: String? {
        let fields: [(String, [String])] = [("source type", [sourceType]), ("type", recordTypes), ("issuer", [issuerIdentifier]),
                                            ("subject name", [subjectFullName]), ("birth date", [subjectBirthDate]),
                                            ("item name", itemNames)]
        return fields.first { $0.1.contains { TerminalControlCharacters.first(in: $0) != nil } }?.0
    }

    /// The record with every unsafe character of its text written as an escape (`\u{0}`).
    public var escapingUnsafeText: VerifiableRecord {
        guard unsafeTextField != nil else { return self }
        var escaped = self
        escaped.sourceType = TerminalControlCharacters.escaped(sourceType)
        escaped.recordTypes = recordTypes.map(TerminalControlCharacters.escaped)
        escaped.issuerIdentifier = TerminalControlCharacters.escaped(issuerIdentifier)
        escaped.subjectFullName = TerminalControlCharacters.escaped(subjectFullName)
        escaped.subjectBirthDate = TerminalControlCharacters.escaped(subjectBirthDate)
        escaped.itemNames = itemNames.map(TerminalControlCharacters.escaped)
        return escaped
    }

    /// The type identifier a verifiable-record query's per-object prompt carries
    /// (`PerObjectPromptCenter`): not a sample type, registered nowhere, so no grant or sample
    /// query can name it.
    public static let promptTypeIdentifier = "HKVerifiableClinicalRecordTypeIdentifier"
}

/// `HKVerifiableClinicalRecordSourceType`'s raw values. Apple documents the constants, not their
/// strings; these are ours.
public enum VerifiableRecordSourceType {
    public static let smartHealthCard = "SMARTHealthCard"
    public static let euDigitalCOVIDCertificate = "EUDigitalCOVIDCertificate"
}

/// `HKVerifiableClinicalRecordCredentialType`'s raw values: the SMART Health Cards type URIs
/// (spec.smarthealth.cards/vocabulary), which is what `recordTypes` holds and a query names.
public enum VerifiableRecordCredentialType {
    public static let covid19 = "https://smarthealth.cards#covid19"
    public static let immunization = "https://smarthealth.cards#immunization"
    public static let laboratory = "https://smarthealth.cards#laboratory"
    public static let recovery = "https://smarthealth.cards#recovery"
}

extension HKSampleType {
    /// The sample type of every `HKVerifiableClinicalRecord`: registered nowhere (no app can be
    /// granted it, no sample query can name it; the records live apart from the sample store).
    package static let verifiableClinicalRecord = HKSampleType(identifier: VerifiableRecord.promptTypeIdentifier)
}
