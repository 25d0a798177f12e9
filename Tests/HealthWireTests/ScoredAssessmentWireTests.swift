import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// A GAD-7/PHQ-9 sample on the wire (Sample.value 31): the answers travel in order, and healthd's
/// decoder refuses more answers than `ScoredAssessmentWire.maxAnswers` before copying them
/// (tested at the limit and one past it); the exact count is the validator's rule.
@Suite(.timeLimit(.minutes(10))) struct ScoredAssessmentWireTests {
    static func record(_ answers: [Int]) -> SampleRecord {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKScoredAssessmentTypeIdentifier.PHQ9.rawValue, startDate: date,
                            endDate: date, value: .scoredAssessment(ScoredAssessmentValue(answers: answers)))
    }

    @Test func theAnswersTravelInOrder() throws {
        let sample = Self.record([3, 2, 1, 0, 0, 1, 2, 3, 4])
        #expect(try SampleList(wire: SampleList([sample]).wireBytes()).samples == [sample])
    }

    @Test func moreAnswersThanTheLimitAreRefusedWhenDecoded() throws {
        let atLimit = Self.record(Array(repeating: 1, count: ScoredAssessmentWire.maxAnswers))
        #expect(try SampleList(wire: SampleList([atLimit]).wireBytes()).samples == [atLimit])
        let past = Self.record(Array(repeating: 1, count: ScoredAssessmentWire.maxAnswers + 1))
        #expect(throws: WireDecodeError.self) { try SampleList(wire: SampleList([past]).wireBytes()) }
    }
}
