import HealthModel

/// How healthctl shows a GAD-7 or PHQ-9 sample: the score, Apple's risk name and the answers,
/// all from `ScoredAssessmentRules` (the one place that scores them).
enum AssessmentText {
    /// The score, or nil when the type is not a scored assessment type.
    static func score(_ value: ScoredAssessmentValue, typeIdentifier: String) -> Int? {
        ScoredAssessmentRules.instrument(typeIdentifier).map { ScoredAssessmentRules.score(value.answers, of: $0) }
    }

    /// "GAD-7 risk moderate; answers 1,2,3,…" — what a person reading the line needs after the score.
    static func detail(_ value: ScoredAssessmentValue, typeIdentifier: String) -> String {
        let answers = "answers " + value.answers.map(String.init).joined(separator: ",")
        guard let instrument = ScoredAssessmentRules.instrument(typeIdentifier) else { return answers }
        let risk = ScoredAssessmentRules.risk(score: ScoredAssessmentRules.score(value.answers, of: instrument), of: instrument)
        return "\(instrument.name) risk \(ScoredAssessmentRules.riskName(risk, of: instrument)); \(answers)"
    }
}
