public import Foundation

/// A questionnaire's result with a score, as HealthKit's `HKScoredAssessment` (iOS 18): the
/// base of `HKGAD7Assessment` and `HKPHQ9Assessment`. An assessment is a sample at one instant
/// (`startDate == endDate == date`). The score is derived from the answers by
/// `ScoredAssessmentRules`, the rule healthd's validator and healthctl also use.
public class HKScoredAssessment: HKSample, @unchecked Sendable {
    /// The answers as raw values, in question order (what the wire and store carry).
    let answerValues: [Int]

    /// When the assessment was taken.
    public var date: Date { startDate }

    /// The sum of the answers' points (a PHQ-9 preferNotToAnswer counts 0).
    public var score: Int {
        guard let instrument = ScoredAssessmentRules.instrument(sampleType.identifier) else { return 0 }
        return ScoredAssessmentRules.score(answerValues, of: instrument)
    }

    /// The Risk raw value of `score` for this instrument (1 = noneToMinimal …).
    var riskValue: Int {
        guard let instrument = ScoredAssessmentRules.instrument(sampleType.identifier) else { return 1 }
        return ScoredAssessmentRules.risk(score: score, of: instrument)
    }

    init(type: HKScoredAssessmentType, date: Date, answers: [Int], metadata: [String: Any]?) {
        answerValues = answers
        super.init(type: type, value: .scoredAssessment(ScoredAssessmentValue(answers: answers)),
                   start: date, end: date, device: nil, metadata: metadata)
    }

    /// Every assessment is a GAD-7 or PHQ-9, whose own `init?(coder:)` reads the archive; an
    /// archive naming this class decodes as nothing.
    public required init?(coder: NSCoder) {
        return nil
    }

    init(type: HKScoredAssessmentType, fetched record: SampleRecord, answers: [Int], parts: FetchedObjectParts) {
        answerValues = answers
        super.init(type: type, fetched: record, parts: parts)
    }
}
