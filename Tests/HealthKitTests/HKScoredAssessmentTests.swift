import Foundation
import HealthKit
import Testing

/// The SDK's GAD-7/PHQ-9 classes against Apple's header (HKGAD7Assessment.h, HKPHQ9Assessment.h:
/// Answer raw values 0…3, PHQ-9 preferNotToAnswer 4; Risk raw values from 1) and documentation
/// (developer.apple.com/documentation/healthkit/hkscoredassessment: `date`, `score`;
/// …/hkphq9assessment/risk-swift.property). Score and risk at a band's edges, through the
/// SDK's own enums.
@Suite(.timeLimit(.minutes(10))) struct HKScoredAssessmentTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func rawValuesAreApplesHeaders() {
        #expect(HKGAD7Assessment.Answer.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(HKPHQ9Assessment.Answer.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(HKGAD7Assessment.Risk.allCases.map(\.rawValue) == [1, 2, 3, 4])
        #expect(HKPHQ9Assessment.Risk.allCases.map(\.rawValue) == [1, 2, 3, 4, 5])
    }

    /// PHQ-9 answers summing to 19 and 20: the moderatelySevere/severe edge; 9th answer
    /// preferNotToAnswer adds nothing.
    @Test func phq9ScoreAndRiskAtTheSevereEdge() {
        let nineteen = HKPHQ9Assessment(date: Self.date, answers: [.nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay,
                                                                   .nearlyEveryDay, .nearlyEveryDay, .severalDays, .notAtAll,
                                                                   .preferNotToAnswer])
        #expect(nineteen.score == 19 && nineteen.risk == .moderatelySevere)
        let twenty = HKPHQ9Assessment(date: Self.date, answers: [.nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay,
                                                                 .nearlyEveryDay, .nearlyEveryDay, .severalDays, .severalDays,
                                                                 .preferNotToAnswer])
        #expect(twenty.score == 20 && twenty.risk == .severe)
    }

    @Test func gad7IsAnInstantOfItsTypeWithItsScore() {
        let assessment = HKGAD7Assessment(date: Self.date, answers: Array(repeating: .severalDays, count: 5) + [.notAtAll, .notAtAll],
                                          metadata: nil)
        #expect(assessment.date == Self.date && assessment.startDate == Self.date && assessment.endDate == Self.date)
        #expect(assessment.sampleType == HKScoredAssessmentType(.GAD7))
        #expect(assessment.sampleType.identifier == HKScoredAssessmentTypeIdentifier.GAD7.rawValue)
        #expect(assessment.score == 5 && assessment.risk == .mild)
    }
}
