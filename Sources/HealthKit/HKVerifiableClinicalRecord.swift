public import Foundation
import HealthModel
import HealthWire

/// A verifiable clinical record, as HealthKit's `HKVerifiableClinicalRecord` (iOS 15): one SMART
/// Health Card the user imported (`healthctl verifiable-records import`) and chose to share with
/// this app in answer to its `HKVerifiableClinicalRecordQuery`. Apple: "The organization that
/// produced the data cryptographically signs the bundle": `dataRepresentation` is the card's JWS
/// as issued, so the app can check the issuer's signature itself (healthd may not have: the user
/// gives the issuer's keys at import, or the record is kept as unverified).
///
/// Its `sampleType` is registered nowhere: no other query reads these records, and an app cannot
/// save one. `startDate` and `endDate` are the relevant date. NSSecureCoding, as Apple's.
public final class HKVerifiableClinicalRecord: HKSample, @unchecked Sendable {
    public let recordTypes: [String]
    public let issuerIdentifier: String
    public let subject: HKVerifiableClinicalRecordSubject
    public let issuedDate: Date
    public let relevantDate: Date
    public let expirationDate: Date?
    public let itemNames: [String]
    public let sourceType: HKVerifiableClinicalRecordSourceType?
    public let dataRepresentation: Data

    /// Apple (iOS 15.0–15.4): the JWS, which `dataRepresentation` replaced.
    @available(*, deprecated, message: "Use dataRepresentation")
    public var jwsRepresentation: Data { dataRepresentation }

    /// The record's types that are credential types (`HKVerifiableClinicalRecordCredentialType`).
    public var credentialTypes: [HKVerifiableClinicalRecordCredentialType] {
        let known: Set = [HKVerifiableClinicalRecordCredentialType.covid19, .immunization, .laboratory, .recovery]
        return recordTypes.map(HKVerifiableClinicalRecordCredentialType.init(rawValue:)).filter(known.contains)
    }

    /// The record as healthd sent it (`VerifiableRecord.sharedWithApp`).
    let record: VerifiableRecord

    init(_ record: VerifiableRecord) {
        self.record = record
        recordTypes = record.recordTypes
        issuerIdentifier = record.issuerIdentifier
        subject = HKVerifiableClinicalRecordSubject(fullName: record.subjectFullName, birthDate: record.subjectBirthDate)
        issuedDate = record.issuedDate
        relevantDate = record.relevantDate
        expirationDate = record.expirationDate
        itemNames = record.itemNames
        sourceType = record.sourceType.isEmpty ? nil : HKVerifiableClinicalRecordSourceType(rawValue: record.sourceType)
        dataRepresentation = Data(record.dataRepresentation)
        // No sample value: the category value is a placeholder no code reads (the sample type
        // is registered nowhere, so it is neither saved nor matched by a sample predicate).
        super.init(type: .verifiableClinicalRecord, plain: .category(0), uuid: record.uuid, start: record.relevantDate,
                   end: record.relevantDate, device: nil, sourceRevision: nil)
    }

    // MARK: NSSecureCoding: the record's fields as one property list of its wire form.

    private static let archiveKey = "HKVerifiableClinicalRecord"

    public override func encode(with coder: NSCoder) {
        coder.encode(VerifiableRecordList([record]).wireBytes().withUnsafeBufferPointer { NSData(bytes: $0.baseAddress, length: $0.count) },
                     forKey: Self.archiveKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: Self.archiveKey),
              let list = try? VerifiableRecordList(wire: [UInt8](Data(referencing: data))), list.records.count == 1 else { return nil }
        self.init(list.records[0])
    }
}
