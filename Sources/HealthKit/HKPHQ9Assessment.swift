public import Foundation

/// A Patient Health Questionnaire 9 result, as HealthKit's `HKPHQ9Assessment` (iOS 18).
/// The 9th question is optional: `.preferNotToAnswer` is allowed there only, and scores 0.
/// Wrong answers are refused on save as for `HKGAD7Assessment`.
public final class HKPHQ9Assessment: HKScoredAssessment, @unchecked Sendable {
    /// `HKPHQ9AssessmentAnswer`, in Apple's nested Swift spelling.
    public enum Answer: Int, Sendable, CaseIterable {
        case notAtAll = 0
        case severalDays = 1
        case moreThanHalfTheDays = 2
        case nearlyEveryDay = 3
        /// Only for question 9 (HKPHQ9Assessment.h).
        case preferNotToAnswer = 4
    }

    /// `HKPHQ9AssessmentRisk`: the PHQ-9 score bands 0-4, 5-9, 10-14, 15-19, 20-27.
    public enum Risk: Int, Sendable, CaseIterable {
        case noneToMinimal = 1
        case mild = 2
        case moderate = 3
        case moderatelySevere = 4
        case severe = 5
    }

    /// One answer per question, in question order.
    public let answers: [Answer]

    /// The risk band of `score`.
    public var risk: Risk { Risk(rawValue: riskValue) ?? .severe }

    public convenience init(date: Date, answers: [Answer], metadata: [String: Any]? = [:]) {
        self.init(date: date, typedAnswers: answers, metadata: metadata)
    }

    private init(date: Date, typedAnswers: [Answer], metadata: [String: Any]?) {
        answers = typedAnswers
        super.init(type: HKScoredAssessmentType(.PHQ9), date: date, answers: typedAnswers.map(\.rawValue), metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`); nil for another instrument's answers.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKScoredAssessmentType,
              type.identifier == HKScoredAssessmentTypeIdentifier.PHQ9.rawValue,
              case let .scoredAssessment(value) = archived.record.value else { return nil }
        self.init(type: type, fetched: archived.record, value, parts: archived.parts)
    }

    /// A fetched assessment; nil when an answer is not one this SDK knows (a newer healthd).
    init?(type: HKScoredAssessmentType, fetched record: SampleRecord, _ value: ScoredAssessmentValue, parts: FetchedObjectParts) {
        let typed = value.answers.compactMap(Answer.init(rawValue:))
        guard typed.count == value.answers.count else { return nil }
        answers = typed
        super.init(type: type, fetched: record, answers: value.answers, parts: parts)
    }
}

/// Apple's Objective-C names for the nested types.
public typealias HKPHQ9AssessmentAnswer = HKPHQ9Assessment.Answer
public typealias HKPHQ9AssessmentRisk = HKPHQ9Assessment.Risk

extension HKSamplePredicate where Sample == HKGAD7Assessment {
    /// HealthKit's `HKSamplePredicate.gad7Assessment(_:)`.
    public static func gad7Assessment(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKGAD7Assessment> {
        HKSamplePredicate(sampleType: HKScoredAssessmentType(.GAD7), nsPredicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKPHQ9Assessment {
    /// HealthKit's `HKSamplePredicate.phq9Assessment(_:)`.
    public static func phq9Assessment(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKPHQ9Assessment> {
        HKSamplePredicate(sampleType: HKScoredAssessmentType(.PHQ9), nsPredicate: predicate)
    }
}
