/// A scored assessment's value (`HKGAD7Assessment`, `HKPHQ9Assessment`): the answers as
/// HealthKit's raw values, one per question in order. The score and risk are derived from them
/// (`ScoredAssessmentRules`), never stored or sent, so they cannot disagree with the answers.
public struct ScoredAssessmentValue: Hashable, Sendable {
    /// `HKGAD7Assessment.Answer` / `HKPHQ9Assessment.Answer` raw values.
    public var answers: [Int]

    public init(answers: [Int]) {
        self.answers = answers
    }
}
