public import Foundation
public import HealthModel

/// The one entry point for a card file's untrusted bytes (healthd's import): the file's cards
/// (`CardFile`), each JWS decoded and its payload inflated within `SmartHealthCardLimits`
/// (`CompactJWS`), its fields read (`CardPayload`), and, when the issuer's keys are given, its
/// signature checked (`IssuerKeys`). Every card must pass, or nothing is returned: an import
/// is all or nothing. Pure: no I/O, no network.
public enum SmartHealthCardReader {
    public static func records(file: [UInt8], issuerKeys: IssuerKeys?, importedAt now: Date = Date(),
                               limits: SmartHealthCardLimits = .standard) throws(SmartHealthCardError) -> [VerifiableRecord] {
        try CardFile.compactJWSs(file, limits: limits).map { (compact) throws(SmartHealthCardError) -> VerifiableRecord in
            let jws = try CompactJWS(compact, limits: limits)
            let payload = try CardPayload(jws.payload, limits: limits)
            if let issuerKeys { try issuerKeys.verify(jws) }
            return VerifiableRecord(
                uuid: UUID(), sourceType: VerifiableRecordSourceType.smartHealthCard, recordTypes: payload.types,
                issuerIdentifier: payload.issuer, subjectFullName: payload.subjectName, subjectBirthDate: payload.subjectBirthDate,
                issuedDate: payload.issued, relevantDate: payload.relevant, expirationDate: payload.expiration,
                itemNames: payload.itemNames, dataRepresentation: Array(compact.utf8),
                verification: issuerKeys == nil ? .unverified : .verified, importedDate: now)
        }
    }
}
