import Foundation
import HealthWire
import Testing
@testable import HealthKit

/// The SDK's verifiable clinical records, against Apple's documentation:
/// - HKVerifiableClinicalRecord "A sample that represents the contents of a SMART Health Card"
///   (developer.apple.com/documentation/healthkit/hkverifiableclinicalrecord): an HKSample with
///   recordTypes, issuerIdentifier, subject, issuedDate, relevantDate, expirationDate, itemNames,
///   sourceType, dataRepresentation (jwsRepresentation deprecated), credentialTypes; NSSecureCoding.
/// - predicateForVerifiableClinicalRecords(withRelevantDateWithin:) "matches HKVerifiableClinicalRecord
///   instances that have a relevantDate property within the specified date interval".
/// - init(recordTypes:predicate:resultsHandler:) "Creates a query for one-time access to a SMART
///   Health Card"; init(recordTypes:sourceTypes:predicate:resultsHandler:) names the formats.
@Suite(.timeLimit(.minutes(10))) struct VerifiableClinicalRecordTests {
    static let relevant = Date(timeIntervalSince1970: 1_611_878_400)

    static func stored(types: [String] = ["https://smarthealth.cards#health-card", "https://smarthealth.cards#immunization",
                                          "https://smarthealth.cards#covid19"],
                       relevant: Date = relevant, source: String = VerifiableRecordSourceType.smartHealthCard) -> VerifiableRecord {
        VerifiableRecord(uuid: UUID(), sourceType: source, recordTypes: types, issuerIdentifier: "https://issuer.example.org",
                         subjectFullName: "John B. Anyperson", subjectBirthDate: "1951-01-20",
                         issuedDate: Date(timeIntervalSince1970: 1_622_505_600), relevantDate: relevant,
                         expirationDate: Date(timeIntervalSince1970: 1_700_000_000), itemNames: ["COVID-19 vaccine"],
                         dataRepresentation: Array("header.payload.signature".utf8))
    }

    @Test func aRecordHasApplesPropertiesAndIsASample() throws {
        let stored = Self.stored()
        let record = HKVerifiableClinicalRecord(stored)
        let sample: HKSample = record
        #expect(sample.uuid == stored.uuid)
        #expect(sample.startDate == Self.relevant && sample.endDate == Self.relevant)
        #expect(record.recordTypes == stored.recordTypes)
        #expect(record.credentialTypes == [.immunization, .covid19])
        #expect(record.issuerIdentifier == "https://issuer.example.org")
        #expect(record.subject.fullName == "John B. Anyperson")
        #expect(record.subject.dateOfBirthComponents?.year == 1951 && record.subject.dateOfBirthComponents?.month == 1
                && record.subject.dateOfBirthComponents?.day == 20)
        #expect(record.issuedDate == stored.issuedDate && record.relevantDate == Self.relevant && record.expirationDate == stored.expirationDate)
        #expect(record.itemNames == ["COVID-19 vaccine"])
        #expect(record.sourceType == .smartHealthCard)
        #expect(record.dataRepresentation == Data("header.payload.signature".utf8))
        #expect(deprecatedJWS(record) == record.dataRepresentation)
        // Not a type any authorization or sample query can name.
        #expect(HKObjectType.type(forIdentifier: record.sampleType.identifier) == nil)
    }

    @available(*, deprecated)
    func deprecatedJWS(_ record: HKVerifiableClinicalRecord) -> Data { record.jwsRepresentation }

    @Test func aPartialBirthDateGivesOnlyItsComponents() {
        let year = HKVerifiableClinicalRecordSubject(fullName: "A", birthDate: "1980")
        #expect(year.dateOfBirthComponents?.year == 1980 && year.dateOfBirthComponents?.month == nil)
        #expect(HKVerifiableClinicalRecordSubject(fullName: "A", birthDate: "").dateOfBirthComponents == nil)
        #expect(HKVerifiableClinicalRecordSubject(fullName: "A", birthDate: "1980-13").dateOfBirthComponents == nil)
    }

    @Test func aRecordArchivesWithSecureCoding() throws {
        let record = HKVerifiableClinicalRecord(Self.stored())
        let archived = try NSKeyedArchiver.archivedData(withRootObject: record, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKVerifiableClinicalRecord.self, from: archived))
        #expect(restored == record)
        #expect(restored.record == record.record)
        #expect(restored.subject == record.subject)
        let subject = try NSKeyedArchiver.archivedData(withRootObject: record.subject, requiringSecureCoding: true)
        #expect(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKVerifiableClinicalRecordSubject.self, from: subject) == record.subject)
    }

    @Test func theRelevantDatePredicateIncludesBothEnds() {
        let interval = DateInterval(start: Self.relevant.addingTimeInterval(-10), end: Self.relevant)
        let predicate = HKQuery.predicateForVerifiableClinicalRecords(withRelevantDateWithin: interval)
        #expect(predicate.evaluate(with: HKVerifiableClinicalRecord(Self.stored())))
        #expect(predicate.evaluate(with: HKVerifiableClinicalRecord(Self.stored(relevant: interval.start))))
        #expect(!predicate.evaluate(with: HKVerifiableClinicalRecord(Self.stored(relevant: interval.end.addingTimeInterval(1)))))
        #expect(!predicate.evaluate(with: "not a record"))
    }

    @Test func theQuerySendsItsTypesAndInterval() throws {
        let interval = DateInterval(start: Self.relevant.addingTimeInterval(-86_400), end: Self.relevant)
        let predicate = HKQuery.predicateForVerifiableClinicalRecords(withRelevantDateWithin: interval)
        let older = HKVerifiableClinicalRecordQuery(recordTypes: ["https://smarthealth.cards#immunization"], predicate: predicate) { _, _, _ in }
        #expect(older.sourceTypes == [.smartHealthCard])
        #expect(older.recordTypes == ["https://smarthealth.cards#immunization"])
        let spec = try HKVerifiableClinicalRecordQuery.spec(recordTypes: older.recordTypes, sourceTypes: older.sourceTypes.map(\.rawValue),
                                                            predicate: predicate).get()
        #expect(spec.relevantInterval == interval.start...interval.end)
        // On the wire and back.
        #expect(try VerifiableRecordQuerySpec(wire: spec.wireBytes()) == spec)
        // Any other predicate is refused, as is an unknown source type.
        let other = HKQuery.predicateForSamples(withStart: nil, end: nil)
        #expect(throws: HKError.self) {
            try HKVerifiableClinicalRecordQuery.spec(recordTypes: [], sourceTypes: [], predicate: other).get()
        }
        #expect(throws: HKError.self) {
            try HKVerifiableClinicalRecordQuery.spec(recordTypes: [], sourceTypes: ["Wallet"], predicate: nil).get()
        }
    }

    /// The one matching rule the user's offer is built from (`VerifiableRecordQuerySpec.matches`).
    @Test func aRecordMatchesWhenItCarriesEveryRequestedTypeAndItsSourceAndDateFit() {
        let covid = Self.stored()
        let lab = Self.stored(types: ["https://smarthealth.cards#laboratory"])
        let immunization = VerifiableRecordQuerySpec(recordTypes: ["https://smarthealth.cards#immunization"], sourceTypes: [],
                                                     relevantInterval: nil)
        #expect(immunization.matches(covid) && !immunization.matches(lab))
        let both = VerifiableRecordQuerySpec(recordTypes: ["https://smarthealth.cards#immunization", "https://smarthealth.cards#covid19"],
                                             sourceTypes: [VerifiableRecordSourceType.smartHealthCard], relevantInterval: nil)
        #expect(both.matches(covid))
        let eu = VerifiableRecordQuerySpec(recordTypes: [], sourceTypes: [VerifiableRecordSourceType.euDigitalCOVIDCertificate],
                                           relevantInterval: nil)
        #expect(!eu.matches(covid))
        let before = VerifiableRecordQuerySpec(recordTypes: [], sourceTypes: [], relevantInterval: Date.distantPast...Self.relevant.addingTimeInterval(-1))
        #expect(!before.matches(covid))
    }

    /// What an app receives carries none of the manager's fields.
    @Test func theAppsCopyHasNoManagerFields() throws {
        var stored = Self.stored()
        stored.verification = .verified
        stored.importedDate = Date(timeIntervalSince1970: 1_700_000_100)
        let shared = try VerifiableRecordList(wire: VerifiableRecordList([stored.sharedWithApp]).wireBytes()).records
        #expect(shared.first?.verification == nil && shared.first?.importedDate == nil)
        #expect(try VerifiableRecordList(wire: VerifiableRecordList([stored]).wireBytes()).records == [stored])
    }
}
