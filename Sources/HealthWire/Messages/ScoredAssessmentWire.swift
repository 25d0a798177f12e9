import COpenHealthProto
import HealthModel

/// types.proto `ScoredAssessment`: a GAD-7 or PHQ-9 sample's answers inside `Sample`.
enum ScoredAssessmentWire {
    /// More answers than any instrument has is refused here, before anything is copied; the
    /// exact count per instrument is the validator's rule (`ScoredAssessmentRules`), which names it.
    static let maxAnswers = 32

    static func build(_ value: ScoredAssessmentValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__ScoredAssessment> {
        arena.message { (wire: inout Openhealth__V1__ScoredAssessment) in
            wire.n_answers = value.answers.count
            wire.answers = arena.array(value.answers.map(Int64.init))
        }
    }

    static func read(_ wire: Openhealth__V1__ScoredAssessment) throws(WireDecodeError) -> ScoredAssessmentValue {
        guard wire.n_answers <= maxAnswers else {
            throw .invalidField("a scored assessment holds \(wire.n_answers) answers; no instrument has more than \(maxAnswers)")
        }
        var answers: [Int] = []
        answers.reserveCapacity(wire.n_answers)
        for index in 0..<wire.n_answers {
            guard let answer = Int(exactly: wire.answers[index]) else { throw .invalidField("assessment answer out of range") }
            answers.append(answer)
        }
        return ScoredAssessmentValue(answers: answers)
    }
}
