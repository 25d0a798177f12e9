import Foundation
import Testing

@testable import HealthModel

/// GAD-7 and PHQ-9 rules, one dimension at a time. Apple's answer raw values and the 9th PHQ-9
/// question's preferNotToAnswer: HKPHQ9Assessment.h / HKGAD7Assessment.h
/// (developer.apple.com/documentation/healthkit/hkphq9assessment/answer,
/// developer.apple.com/documentation/healthkit/hkgad7assessment). Risk bands are the instruments'
/// published cut-offs that Apple's Risk enums name (developer.apple.com/documentation/healthkit/
/// hkgad7assessment/risk-swift.property; support.apple.com/en-us/105070): GAD-7 0-4, 5-9, 10-14,
/// 15-21; PHQ-9 0-4, 5-9, 10-14, 15-19, 20-27. Each band is tested at both of its edges.
@Suite(.timeLimit(.minutes(10))) struct ScoredAssessmentRulesTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static func record(_ identifier: HKScoredAssessmentTypeIdentifier, _ answers: [Int]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: identifier.rawValue, startDate: date, endDate: date,
                     value: .scoredAssessment(ScoredAssessmentValue(answers: answers)))
    }

    @Test(arguments: [
        (0, 1), (4, 1), (5, 2), (9, 2), (10, 3), (14, 3), (15, 4), (21, 4),
    ] as [(Int, Int)])
    func gad7RiskAtEachBandsEdges(score: Int, risk: Int) {
        #expect(ScoredAssessmentRules.risk(score: score, of: ScoredAssessmentRules.gad7) == risk)
    }

    @Test(arguments: [
        (0, 1), (4, 1), (5, 2), (9, 2), (10, 3), (14, 3), (15, 4), (19, 4), (20, 5), (27, 5),
    ] as [(Int, Int)])
    func phq9RiskAtEachBandsEdges(score: Int, risk: Int) {
        #expect(ScoredAssessmentRules.risk(score: score, of: ScoredAssessmentRules.phq9) == risk)
    }

    @Test func theScoreIsTheSumAndPreferNotToAnswerCountsZero() {
        #expect(ScoredAssessmentRules.score([3, 3, 3, 3, 3, 3, 3], of: ScoredAssessmentRules.gad7) == 21)
        #expect(ScoredAssessmentRules.score([3, 3, 3, 3, 3, 3, 3, 3, 3], of: ScoredAssessmentRules.phq9) == 27)
        #expect(ScoredAssessmentRules.score([3, 3, 3, 3, 3, 3, 3, 3, 4], of: ScoredAssessmentRules.phq9) == 24)
    }

    @Test func everyAllowedAnswerIsAccepted() throws {
        for answer in 0...3 {
            _ = try SampleValidator.canonicalized(Self.record(.GAD7, Array(repeating: answer, count: 7)))
            _ = try SampleValidator.canonicalized(Self.record(.PHQ9, Array(repeating: answer, count: 9)))
        }
        _ = try SampleValidator.canonicalized(Self.record(.PHQ9, Array(repeating: 1, count: 8) + [4]))
    }

    /// The count: one fewer and one more than the instrument's questions, and none.
    @Test(arguments: [
        (HKScoredAssessmentTypeIdentifier.GAD7, 6), (.GAD7, 8), (.GAD7, 0), (.PHQ9, 8), (.PHQ9, 10), (.PHQ9, 0),
    ] as [(HKScoredAssessmentTypeIdentifier, Int)])
    func theWrongNumberOfAnswersIsRefusedNamingTheCount(identifier: HKScoredAssessmentTypeIdentifier, count: Int) {
        let expected = identifier == .GAD7 ? "exactly 7 answers" : "exactly 9 answers"
        #expect {
            _ = try SampleValidator.canonicalized(Self.record(identifier, Array(repeating: 0, count: count)))
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains(expected) == true
        }
    }

    /// Raw values outside the enum, and preferNotToAnswer anywhere but PHQ-9's 9th question or
    /// in GAD-7 at all: refused with the question's number.
    @Test(arguments: [
        (HKScoredAssessmentTypeIdentifier.GAD7, 6, 4, "question 7"), (.GAD7, 0, -1, "question 1"), (.GAD7, 3, 5, "question 4"),
        (.PHQ9, 0, 4, "question 1"), (.PHQ9, 7, 4, "question 8"), (.PHQ9, 8, 5, "question 9"), (.PHQ9, 8, -1, "question 9"),
        (.PHQ9, 2, Int.max, "question 3"),
    ] as [(HKScoredAssessmentTypeIdentifier, Int, Int, String)])
    func anUnknownAnswerIsRefusedNamingTheQuestion(identifier: HKScoredAssessmentTypeIdentifier, question: Int, answer: Int,
                                                  named: String) {
        var answers = Array(repeating: 1, count: identifier == .GAD7 ? 7 : 9)
        answers[question] = answer
        #expect {
            _ = try SampleValidator.canonicalized(Self.record(identifier, answers))
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains(named) == true
        }
    }

    @Test func aTypeHoldsOnlyItsOwnKindOfValue() {
        let category = SampleRecord(uuid: UUID(), typeIdentifier: HKScoredAssessmentTypeIdentifier.GAD7.rawValue,
                                    startDate: Self.date, endDate: Self.date, value: .category(0))
        #expect(throws: HKError.self) { _ = try SampleValidator.canonicalized(category) }
    }

    @Test func theTypesAreRegisteredUnderApplesIdentifiers() {
        #expect(HKObjectType.scoredAssessmentType(forIdentifier: .GAD7)?.identifier == "HKScoredAssessmentTypeIdentifierGAD7")
        #expect(HKObjectType.scoredAssessmentType(forIdentifier: .PHQ9)?.identifier == "HKScoredAssessmentTypeIdentifierPHQ9")
        #expect(HKObjectType.scoredAssessmentType(forIdentifier: HKScoredAssessmentTypeIdentifier("HKScoredAssessmentTypeIdentifierPHQ8")) == nil)
        #expect(HKObjectType.type(forIdentifier: "HKScoredAssessmentTypeIdentifierGAD7") is HKScoredAssessmentType)
    }
}
