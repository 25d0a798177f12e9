import Foundation
import HealthModel
import Testing
import TestSupport
@testable import SmartHealthCard

/// The card reader healthd runs on a file the user imports (`healthctl verifiable-records
/// import`): the fields HealthKit's `HKVerifiableClinicalRecord` gives, read per the SMART Health
/// Cards specification (spec.smarthealth.cards: a compact JWS, ES256, `zip: DEF` raw DEFLATE, a
/// payload with `iss`, `nbf`, `vc.type` and a FHIR bundle), and the three forms a card comes in
/// (a `.smart-health-card` file's `verifiableCredential` array, a JWS, a `shc:/` numeric QR string).
@Suite(.timeLimit(.minutes(10))) struct SmartHealthCardReaderTests {
    @Test func aSignedCardVerifiesWithItsIssuersKeyAndGivesApplesFields() throws {
        let keys = try IssuerKeys(Array(SignedCardFixture.jwks.utf8))
        let file = TestCards.file([SignedCardFixture.jws])
        let records = try SmartHealthCardReader.records(file: file, issuerKeys: keys)
        let record = try #require(records.first)
        #expect(records.count == 1)
        #expect(record.verification == .verified)
        #expect(record.sourceType == VerifiableRecordSourceType.smartHealthCard)
        #expect(record.issuerIdentifier == "https://issuer.example.org/shc")
        #expect(record.recordTypes.contains(VerifiableRecordCredentialType.covid19))
        #expect(record.subjectFullName == "John B. Anyperson")
        #expect(record.subjectBirthDate == "1951-01-20")
        #expect(record.issuedDate == Date(timeIntervalSince1970: 1_622_505_600))
        // The relevant date: the newest immunization (2021-01-29, UTC midnight).
        #expect(record.relevantDate == Date(timeIntervalSince1970: 1_611_878_400))
        #expect(record.itemNames == ["COVID-19, mRNA, LNP-S, PF, 100 mcg/0.5mL dose", "http://hl7.org/fhir/sid/cvx|207"])
        #expect(record.dataRepresentation == Array(SignedCardFixture.jws.utf8))
        #expect(record.expirationDate == nil)
    }

    @Test func withoutKeysACardIsReadAndMarkedUnverified() throws {
        let records = try SmartHealthCardReader.records(file: Array(SignedCardFixture.jws.utf8), issuerKeys: nil)
        #expect(records.map(\.verification) == [.unverified])
    }

    @Test func anotherKeyOrAChangedPayloadDoesNotVerify() throws {
        let other = try IssuerKeys(Array(SignedCardFixture.otherJWKS.utf8))
        #expect(throws: SmartHealthCardError.signatureInvalid) {
            try SmartHealthCardReader.records(file: Array(SignedCardFixture.jws.utf8), issuerKeys: other)
        }
        // The same signature over another payload (an unsigned card's body under the fixture's header).
        let parts = SignedCardFixture.jws.split(separator: ".")
        let forged = TestCards.jws(payload: TestCards.payload()).split(separator: ".")
        let spliced = "\(parts[0]).\(forged[1]).\(parts[2])"
        let keys = try IssuerKeys(Array(SignedCardFixture.jwks.utf8))
        #expect(throws: SmartHealthCardError.signatureInvalid) {
            try SmartHealthCardReader.records(file: Array(spliced.utf8), issuerKeys: keys)
        }
        // A card whose kid the key file does not hold.
        #expect(throws: SmartHealthCardError.noKeyForCard(kid: "test")) {
            try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: TestCards.payload()).utf8), issuerKeys: keys)
        }
    }

    @Test func theThreeFormsOfACardGiveTheSameRecord() throws {
        let jws = TestCards.jws(payload: TestCards.payload())
        let forms: [[UInt8]] = [TestCards.file([jws]), Array(jws.utf8), Array((TestCards.numeric(jws) + "\n").utf8)]
        let read = try forms.map { try SmartHealthCardReader.records(file: $0, issuerKeys: nil) }
        for records in read {
            #expect(records.count == 1)
            #expect(records[0].dataRepresentation == Array(jws.utf8))
            #expect(records[0].subjectFullName == "Jane Doe")
            #expect(records[0].subjectBirthDate == "1980-05")
            #expect(records[0].itemNames == ["COVID-19 vaccine"])
        }
        #expect(throws: SmartHealthCardError.chunkedQRUnsupported) {
            try SmartHealthCardReader.records(file: Array("shc:/1/2/5676".utf8), issuerKeys: nil)
        }
    }

    /// A zip bomb stops at the inflate bound: 64 MiB of payload from 64 KB, refused after at most
    /// 1 MiB was written (the bound is the inflater's output buffer, `CompactJWS.inflate`).
    @Test func aZipBombIsRefusedAtTheInflateBound() {
        #expect(throws: SmartHealthCardError.payloadTooLarge(limit: SmartHealthCardLimits.standard.maxInflatedBytes)) {
            try SmartHealthCardReader.records(file: Array(SignedCardFixture.bombJWS.utf8), issuerKeys: nil)
        }
        var small = SmartHealthCardLimits()
        small.maxInflatedBytes = 100
        #expect(throws: SmartHealthCardError.payloadTooLarge(limit: 100)) {
            try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: TestCards.payload()).utf8), issuerKeys: nil,
                                              limits: small)
        }
    }

    @Test func sizeAndTextAreCheckedBeforeDecoding() {
        let limits = SmartHealthCardLimits.standard
        #expect(throws: SmartHealthCardError.tooLarge(what: "the file", limit: limits.maxFileBytes)) {
            try SmartHealthCardReader.records(file: [UInt8](repeating: UInt8(ascii: "a"), count: limits.maxFileBytes + 1), issuerKeys: nil)
        }
        #expect(throws: SmartHealthCardError.notText("it holds a NUL byte")) {
            try SmartHealthCardReader.records(file: Array("a.b\u{0}.c".utf8), issuerKeys: nil)
        }
        #expect(throws: SmartHealthCardError.notText("it is not valid UTF-8")) {
            try SmartHealthCardReader.records(file: [0x61, 0x2e, 0xff, 0xfe, 0x2e, 0x63], issuerKeys: nil)
        }
        // A payload with a NUL inside a string, and one of invalid UTF-8.
        #expect(throws: SmartHealthCardError.malformedPayload("it is not UTF-8 text without NUL")) {
            try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: TestCards.payload(name: "Jane\u{0}Doe")).utf8), issuerKeys: nil)
        }
        // Nesting deeper than the bound, refused before the JSON parser runs.
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: SmartHealthCardError.self) {
            try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: deep).utf8), issuerKeys: nil)
        }
    }

    @Test func aHeaderOtherThanES256WithDEFIsRefused() {
        let none = TestCards.b64url(Array(#"{"alg":"none","zip":"DEF","kid":"k"}"#.utf8))
        #expect(throws: SmartHealthCardError.unsupportedHeader("alg is not ES256")) {
            try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: TestCards.payload(), header: none).utf8), issuerKeys: nil)
        }
    }

    /// A fractional second of 34+ digits made ICU's ISO8601DateFormatter trap (SIGFPE), ending
    /// healthd before any signature check (red team, session 22, finding 1). Dates are read by
    /// `ISO8601DateTime` now: such a date is not a date, so the record's relevant date is the
    /// issue date, and the reader returns.
    @Test func aDateWithAHugeFractionIsIgnoredNotFatal() throws {
        for digits in [34, 35, 40, 1_000] {
            let date = "2020-01-01T00:00:00." + String(repeating: "0", count: digits) + "1Z"
            let records = try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: TestCards.payload(date: date)).utf8),
                                                            issuerKeys: nil)
            #expect(records.map(\.relevantDate) == [Date(timeIntervalSince1970: 1_622_505_600)])
        }
        let ordinary = try SmartHealthCardReader.records(
            file: Array(TestCards.jws(payload: TestCards.payload(date: "2021-03-01T10:00:00.5+01:00")).utf8), issuerKeys: nil)
        #expect(ordinary.map(\.relevantDate) == [Date(timeIntervalSince1970: 1_614_589_200.5)])
    }

    /// Every decoded string of a card — JSON escapes included — is checked once (`CardText`):
    /// `\u0000` was stored and then broke every listing; a newline in a type forged a line of
    /// the listing (red team, session 22, findings 2 and 4). Refused, naming the field.
    @Test func aCardWhoseTextHoldsAControlCharacterIsRefusedNamingTheField() {
        let cases: [(payload: String, field: String, scalar: UInt32)] = [
            (TestCards.payload(name: "Jane\\u0000Doe"), "the payload (at vc.credentialSubject.fhirBundle.entry[0].resource.name[0].text)", 0),
            (TestCards.payload(types: ["https://smarthealth.cards#health-card\\n    issuer forged, signature verified"]),
             "the payload (at vc.type[0])", 0x0A),
            (TestCards.payload(types: ["#x\\u001b[2K"]), "the payload (at vc.type[0])", 0x1B),
            (TestCards.payload(vaccine: "abc\\u202Edef"), "the payload (at vc.credentialSubject.fhirBundle.entry[1].resource.vaccineCode.text)", 0x202E),
            (TestCards.payload(vaccine: "line\\u2028sep"), "the payload (at vc.credentialSubject.fhirBundle.entry[1].resource.vaccineCode.text)", 0x2028),
            (TestCards.payload(vaccine: "c1\\u0085"), "the payload (at vc.credentialSubject.fhirBundle.entry[1].resource.vaccineCode.text)", 0x85),
        ]
        for (payload, field, scalar) in cases {
            #expect(throws: SmartHealthCardError.unsafeText(field: field, scalar: scalar)) {
                try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: payload).utf8), issuerKeys: nil)
            }
        }
        // A key, and the header's kid (which error texts quote).
        #expect(throws: SmartHealthCardError.unsafeText(field: "the payload (at a key)", scalar: 0)) {
            try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: #"{"a\u0000":1}"#).utf8), issuerKeys: nil)
        }
        let header = TestCards.b64url(Array(#"{"zip":"DEF","alg":"ES256","kid":"k\nforged"}"#.utf8))
        #expect(throws: SmartHealthCardError.unsafeText(field: "the JWS header (at kid)", scalar: 0x0A)) {
            try SmartHealthCardReader.records(file: Array(TestCards.jws(payload: TestCards.payload(), header: header).utf8), issuerKeys: nil)
        }
        // The error text itself is one printable line.
        let text = SmartHealthCardError.unsafeText(field: "the payload (at vc.type[0])", scalar: 0x0A).description
        #expect(text.hasPrefix("the payload (at vc.type[0]) holds the character U+000A"), "\(text)")
    }

    /// A record's item names are bounded together (16 KiB), so 64 records' summaries fit one
    /// frame: the red team's 64 cards of 255 names of 505 bytes made an 8.5 MB answer.
    @Test func itemNamesPastTheRecordBoundAreRefused() throws {
        func card(names: Int, bytes: Int) -> String {
            let entries = (0..<names).map { index in
                #"{"resource":{"resourceType":"Immunization","vaccineCode":{"text":"\#(String(repeating: "v", count: bytes - 4))\#(String(format: "%04d", index))"},"occurrenceDateTime":"2021-01-01"}}"#
            }
            return TestCards.jws(payload: #"{"iss":"https://issuer.example.org","nbf":1622505600,"vc":{"type":["https://smarthealth.cards#health-card"],"credentialSubject":{"fhirBundle":{"resourceType":"Bundle","entry":[\#(entries.joined(separator: ","))]}}}}"#)
        }
        let limit = SmartHealthCardLimits.standard.maxItemNameBytes
        #expect(throws: SmartHealthCardError.itemNamesTooLarge(limit: limit)) {
            try SmartHealthCardReader.records(file: TestCards.file([card(names: 255, bytes: 505)]), issuerKeys: nil)
        }
        // Exactly at the bound: read.
        let atBound = try SmartHealthCardReader.records(file: TestCards.file([card(names: 32, bytes: 512)]), issuerKeys: nil)
        #expect(atBound.first?.itemNames.reduce(0) { $0 + $1.utf8.count } == limit)
        #expect(throws: SmartHealthCardError.itemNamesTooLarge(limit: limit)) {
            try SmartHealthCardReader.records(file: TestCards.file([card(names: 33, bytes: 497)]), issuerKeys: nil)
        }
    }

    /// Fuzz-ish: every truncation and many byte flips of a valid card, a file and a key set, and
    /// random bytes, are either read or refused with a typed error — never a trap or a hang.
    @Test func malformedInputsAreRefusedWithTypedErrors() throws {
        var generator = SeededGenerator(seed: 15)
        let card = Array(SignedCardFixture.jws.utf8)
        let inputs: [[UInt8]] = [card, TestCards.file([SignedCardFixture.jws]), Array(TestCards.numeric(TestCards.jws(payload: TestCards.payload())).utf8)]
        var refused = 0
        var read = 0
        func attempt(_ bytes: [UInt8]) {
            do {
                _ = try SmartHealthCardReader.records(file: bytes, issuerKeys: nil)
                read += 1
            } catch {
                refused += 1
            }
        }
        for input in inputs {
            for cut in stride(from: 0, to: input.count, by: max(1, input.count / 200)) { attempt(Array(input.prefix(cut))) }
            for _ in 0..<300 {
                var flipped = input
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    flipped[Int.random(in: 0..<flipped.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                attempt(flipped)
            }
        }
        for _ in 0..<300 { attempt((0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        #expect(refused > 500)
        // The key file's parser too.
        let jwks = Array(SignedCardFixture.jwks.utf8)
        for _ in 0..<300 {
            var flipped = jwks
            flipped[Int.random(in: 0..<flipped.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? IssuerKeys(flipped)
        }
        _ = read
    }
}

/// SplitMix64: reproducible inputs for the fuzz-ish test.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
