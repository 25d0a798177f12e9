public import Foundation

/// A Generalized Anxiety Disorder 7 result, as HealthKit's `HKGAD7Assessment` (iOS 18).
///
/// Like HealthKit, the initializer takes any answers; HealthKit raises an Objective-C exception
/// for a count other than 7, which Swift cannot catch. Here such a sample is refused when it is
/// saved, with `HKError.errorInvalidArgument` naming the count (healthd's validator, the one
/// authority), and `score`/`risk` of an unsaved wrong sample are whatever its answers sum to.
public final class HKGAD7Assessment: HKScoredAssessment, @unchecked Sendable {
    /// `HKGAD7AssessmentAnswer`, in Apple's nested Swift spelling.
    public enum Answer: Int, Sendable, CaseIterable {
        case notAtAll = 0
        case severalDays = 1
        case moreThanHalfTheDays = 2
        case nearlyEveryDay = 3
    }

    /// `HKGAD7AssessmentRisk`: the GAD-7 score bands 0-4, 5-9, 10-14, 15-21.
    public enum Risk: Int, Sendable, CaseIterable {
        case noneToMinimal = 1
        case mild = 2
        case moderate = 3
        case severe = 4
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
        super.init(type: HKScoredAssessmentType(.GAD7), date: date, answers: typedAnswers.map(\.rawValue), metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`); nil for another instrument's answers.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKScoredAssessmentType,
              type.identifier == HKScoredAssessmentTypeIdentifier.GAD7.rawValue,
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
public typealias HKGAD7AssessmentAnswer = HKGAD7Assessment.Answer
public typealias HKGAD7AssessmentRisk = HKGAD7Assessment.Risk
