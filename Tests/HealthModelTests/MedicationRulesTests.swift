import Foundation
import Testing

@testable import HealthModel

/// `MedicationRules` through `SampleValidator`, the one validator every save path runs. Apple's
/// rules asserted here (HKMedicationDoseEvent.h, developer.apple.com/documentation/healthkit/hkmedicationdoseevent):
/// scheduledDate and scheduledDoseQuantity are "always non-null for scheduled medication dose
/// events, always null for as needed dose events"; log statuses 1…6, schedule types 1…2.
/// The rest are this project's bounds (Apple documents none): every extreme of every field is
/// refused with `errorInvalidArgument` naming the field, and never accepted.
@Suite(.timeLimit(.minutes(10))) struct MedicationRulesTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let doseType = HKMedicationDoseEventTypeIdentifierMedicationDoseEvent
    static let medicationType = HKDataTypeIdentifierUserAnnotatedMedicationConcept

    static let validDose = MedicationDoseEventValue(medicationConceptIdentifier: "ibuprofen", scheduleType: 2, logStatus: 4, unit: "mg",
                                                    doseQuantity: 200, scheduledDoseQuantity: 200, scheduledDate: date)
    static let validMedication = UserAnnotatedMedicationValue(
        conceptIdentifier: "ibuprofen", displayText: "Ibuprofen 200 mg", generalForm: "tablet",
        relatedCodings: [ClinicalCodingValue(system: "http://www.nlm.nih.gov/research/umls/rxnorm", code: "310965")],
        nickname: "Pain", isArchived: false, hasSchedule: true)

    static func record(_ value: SampleRecord.Value, type: String, start: Date = date, end: Date = date) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: end, value: value)
    }

    static func refusal(_ record: SampleRecord) -> HKError? {
        do {
            _ = try SampleValidator.canonicalized(record)
            return nil
        } catch {
            return error
        }
    }

    /// Extremes of text: empty, NUL, other controls, U+FFFD (invalid UTF-8 decoded), too long.
    static let badTexts = ["", "a\u{0}b", "\u{0}", "tab\there", "new\nline", "bad \u{FFFD} bytes", String(repeating: "x", count: 257),
                           String(repeating: "é", count: 129)]
    /// Extremes of numbers for a dose: NaN, ±inf, negative, 1e308, just above the bound.
    static let badDoses: [Double] = [.nan, .infinity, -.infinity, -1, -0.000_001, 1e308, 1_000_000.5, -.greatestFiniteMagnitude]
    /// Extremes of dates: before 1900, after 2200, distant past/future.
    static let badDates: [Date] = [.distantPast, .distantFuture, Date(timeIntervalSince1970: -2_208_988_801),
                                   Date(timeIntervalSince1970: 7_258_118_401), Date(timeIntervalSince1970: 1e15)]

    @Test func validMedicationAndDosesPass() {
        #expect(Self.refusal(Self.record(.medicationDoseEvent(Self.validDose), type: Self.doseType)) == nil)
        #expect(Self.refusal(Self.record(.userAnnotatedMedication(Self.validMedication), type: Self.medicationType)) == nil)
        var asNeeded = Self.validDose
        (asNeeded.scheduleType, asNeeded.scheduledDate, asNeeded.scheduledDoseQuantity, asNeeded.doseQuantity) = (1, nil, nil, nil)
        #expect(Self.refusal(Self.record(.medicationDoseEvent(asNeeded), type: Self.doseType)) == nil)
        // Zero and the bound itself are doses.
        for quantity in [0, 1_000_000.0] {
            var dose = Self.validDose
            dose.doseQuantity = quantity
            #expect(Self.refusal(Self.record(.medicationDoseEvent(dose), type: Self.doseType)) == nil)
        }
    }

    /// One field varied at a time over its extremes; every case is refused.
    static var badDoseCases: [(String, MedicationDoseEventValue)] {
        var cases: [(String, MedicationDoseEventValue)] = []
        for text in badTexts {
            var dose = validDose
            dose.medicationConceptIdentifier = text
            cases.append(("concept \(text.debugDescription.prefix(20))", dose))
            dose = validDose
            dose.unit = text
            cases.append(("unit \(text.debugDescription.prefix(20))", dose))
        }
        for unit in ["furlongs", "kg/", "mg*", "(("] {
            var dose = validDose
            dose.unit = unit
            cases.append(("unit \(unit)", dose))
        }
        for number in badDoses {
            var dose = validDose
            dose.doseQuantity = number
            cases.append(("doseQuantity \(number)", dose))
            dose = validDose
            dose.scheduledDoseQuantity = number
            cases.append(("scheduledDoseQuantity \(number)", dose))
        }
        for date in badDates {
            var dose = validDose
            dose.scheduledDate = date
            cases.append(("scheduledDate \(date.timeIntervalSince1970)", dose))
        }
        for status in [0, 7, -1, Int.max, Int.min] {
            var dose = validDose
            dose.logStatus = status
            cases.append(("logStatus \(status)", dose))
        }
        for type in [0, 3, -1, Int.max] {
            var dose = validDose
            dose.scheduleType = type
            cases.append(("scheduleType \(type)", dose))
        }
        // Apple's schedule rule, both directions and both fields.
        var dose = validDose
        dose.scheduledDate = nil
        cases.append(("scheduled without scheduledDate", dose))
        dose = validDose
        dose.scheduledDoseQuantity = nil
        cases.append(("scheduled without scheduledDoseQuantity", dose))
        dose = validDose
        (dose.scheduleType, dose.scheduledDoseQuantity) = (1, nil)
        cases.append(("as needed with scheduledDate", dose))
        dose = validDose
        (dose.scheduleType, dose.scheduledDate) = (1, nil)
        cases.append(("as needed with scheduledDoseQuantity", dose))
        return cases
    }

    @Test func everyExtremeOfADoseIsRefused() {
        for (name, dose) in Self.badDoseCases {
            let error = Self.refusal(Self.record(.medicationDoseEvent(dose), type: Self.doseType))
            #expect(error?.code == .errorInvalidArgument, "\(name) was not refused")
        }
    }

    static var badMedicationCases: [(String, UserAnnotatedMedicationValue)] {
        var cases: [(String, UserAnnotatedMedicationValue)] = []
        for text in badTexts {
            var medication = validMedication
            medication.displayText = text
            cases.append(("displayText \(text.debugDescription.prefix(20))", medication))
            medication = validMedication
            medication.conceptIdentifier = text
            cases.append(("concept \(text.debugDescription.prefix(20))", medication))
            medication = validMedication
            medication.nickname = text
            cases.append(("nickname \(text.debugDescription.prefix(20))", medication))
            medication = validMedication
            medication.relatedCodings = [ClinicalCodingValue(system: text, code: "1")]
            cases.append(("coding system \(text.debugDescription.prefix(20))", medication))
            medication = validMedication
            medication.relatedCodings = [ClinicalCodingValue(system: "s", version: text, code: "1")]
            cases.append(("coding version \(text.debugDescription.prefix(20))", medication))
            medication = validMedication
            medication.relatedCodings = [ClinicalCodingValue(system: "s", code: text)]
            cases.append(("coding code \(text.debugDescription.prefix(20))", medication))
        }
        for form in ["", "Tablet", "pill", "HKMedicationGeneralFormTablet", "tablet\u{0}"] {
            var medication = validMedication
            medication.generalForm = form
            cases.append(("generalForm \(form.debugDescription)", medication))
        }
        var medication = validMedication
        medication.relatedCodings = (0...32).map { ClinicalCodingValue(system: "s", code: "\($0)") }
        cases.append(("33 codings", medication))
        medication = validMedication
        medication.relatedCodings = [ClinicalCodingValue(system: "s", code: "1"), ClinicalCodingValue(system: "s", code: "1")]
        cases.append(("a coding twice", medication))
        return cases
    }

    @Test func everyExtremeOfAMedicationIsRefused() {
        for (name, medication) in Self.badMedicationCases {
            let error = Self.refusal(Self.record(.userAnnotatedMedication(medication), type: Self.medicationType))
            #expect(error?.code == .errorInvalidArgument, "\(name) was not refused")
        }
    }

    /// Both are one moment; dates outside the sample window are refused as for every sample.
    @Test func datesAreOneMomentInsideTheSampleWindow() {
        let values: [(SampleRecord.Value, String)] = [(.medicationDoseEvent(Self.validDose), Self.doseType),
                                                      (.userAnnotatedMedication(Self.validMedication), Self.medicationType)]
        for (value, type) in values {
            #expect(Self.refusal(Self.record(value, type: type, end: Self.date + 1))?.code == .errorInvalidArgument)
            for date in Self.badDates {
                #expect(Self.refusal(Self.record(value, type: type, start: date, end: date))?.code == .errorInvalidArgument)
            }
        }
    }

    /// Each type holds only its own kind of value.
    @Test func aValueOfTheOtherKindIsRefused() {
        #expect(Self.refusal(Self.record(.userAnnotatedMedication(Self.validMedication), type: Self.doseType))?.code == .errorInvalidArgument)
        #expect(Self.refusal(Self.record(.medicationDoseEvent(Self.validDose), type: Self.medicationType))?.code == .errorInvalidArgument)
        #expect(Self.refusal(Self.record(.quantity(1, unit: "count"), type: Self.doseType))?.code == .errorInvalidArgument)
    }

    /// Read-only for apps (iOS 26 medications API): no share request and no app save names them.
    @Test func appsMayNeitherShareNorSaveThem() {
        for type in [Self.doseType, Self.medicationType] {
            #expect(!AppWritability.isShareable(type))
            #expect(!AppWritability.isSavableByApps(type))
            #expect(AppWritability.shareRefusal([type])?.message.contains(type) == true)
        }
        #expect(PerObjectAuthorization.isPerObject(Self.medicationType))
        #expect(!PerObjectAuthorization.isPerObject(Self.doseType))
        #expect(PerObjectAuthorization.readRefusal([Self.doseType]) != nil)
        #expect(PerObjectAuthorization.readRefusal([Self.medicationType]) != nil)
    }

    /// The reference semantics of the medication predicates, which the store's SQL must agree with.
    @Test func predicateReferenceSemantics() {
        let dose = SampleRecord.Value.medicationDoseEvent(Self.validDose)
        let medication = SampleRecord.Value.userAnnotatedMedication(Self.validMedication)
        #expect(MedicationTest.logStatuses([4]).matches(dose))
        #expect(!MedicationTest.logStatuses([4]).matches(medication))
        #expect(MedicationTest.scheduledRange(start: Self.date, end: Self.date + 1).matches(dose))
        #expect(!MedicationTest.scheduledRange(start: nil, end: Self.date).matches(dose), "the end is exclusive")
        #expect(MedicationTest.scheduledDates([Self.date]).matches(dose))
        #expect(MedicationTest.conceptIdentifiers(["ibuprofen"]).matches(dose))
        #expect(!MedicationTest.conceptIdentifiers(["ibuprofen"]).matches(medication))
        #expect(MedicationTest.hasSchedule(true).matches(medication))
        #expect(!MedicationTest.isArchived(true).matches(medication))
        #expect(!MedicationTest.isArchived(false).matches(dose))
    }
}
