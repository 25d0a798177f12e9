import Foundation
@testable import HealthManagerCLI
import HealthModel
import Testing

/// `healthctl verifiable-records list/import` and `object-requests` show a card's texts through
/// the one escaping function (`TerminalText.shown`): the types were printed raw, and a card whose
/// type held a newline forged a "signature verified" line (red team, session 22, finding 2).
/// healthd now refuses such cards; this is the terminal's own guard, for every field of the record.
@Suite(.timeLimit(.minutes(10))) struct VerifiableRecordListingTests {
    @Test func everyTextOfACardIsShownEscapedOnItsOwnLines() {
        let forged = "\n    issuer https://forged, issued 2021-05-01, signature verified with the issuer keys given at import\u{1B}[0m\u{202E}"
        let record = VerifiableRecord(
            uuid: UUID(), sourceType: VerifiableRecordSourceType.smartHealthCard,
            recordTypes: ["https://smarthealth.cards#health-card" + forged, "#x" + forged],
            issuerIdentifier: "https://issuer" + forged, subjectFullName: "Jane" + forged, subjectBirthDate: "1980",
            issuedDate: Date(timeIntervalSince1970: 1_600_000_000), relevantDate: Date(timeIntervalSince1970: 1_600_000_000),
            expirationDate: nil, itemNames: ["Vaccine" + forged], dataRepresentation: [], verification: .unverified)
        let lines = VerifiableRecordsCommand.describe(record, timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)
        // Three lines (heading, issuer, items), none holding a raw control or bidi character.
        #expect(lines.count == 3)
        for line in lines {
            #expect(!line.unicodeScalars.contains(where: TerminalControlCharacters.contains), "\(line.debugDescription)")
        }
        #expect(lines[0].contains(#"#health-card\n    issuer https://forged"#) && lines[0].contains(#"\u{1B}[0m\u{202E}"#), "\(lines[0])")
        #expect(lines[1].hasSuffix("signature not verified (no issuer keys given)"), "\(lines[1])")
    }
}
