import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// GAD-7 and PHQ-9 samples in the store (v22 `scored_assessments`): every answer comes back in
/// question order, including PHQ-9's preferNotToAnswer in the 9th place
/// (developer.apple.com/documentation/healthkit/hkphq9assessment/answer/prefernottoanswer);
/// deleting the sample removes its answers.
@Suite(.timeLimit(.minutes(10))) struct ScoredAssessmentRepositoryTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")
    static let gad7 = [0, 1, 2, 3, 3, 2, 1]
    static let phq9 = [3, 2, 1, 0, 0, 1, 2, 3, 4]

    static func record(_ identifier: HKScoredAssessmentTypeIdentifier, _ answers: [Int]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: identifier.rawValue, startDate: date, endDate: date,
                     value: .scoredAssessment(ScoredAssessmentValue(answers: answers)))
    }

    @Test func theAnswersRoundTripInOrder() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.record(.GAD7, Self.gad7), Self.record(.PHQ9, Self.phq9)], source: Self.owner)
        var fetched: [SampleRecord] = []
        for identifier in HKScoredAssessmentTypeIdentifier.registered {
            try database.samples.query(SampleQuerySpec(typeIdentifier: identifier.rawValue), scope: .allSources) { fetched += $0 }
        }
        #expect(fetched.map(\.value) == [.scoredAssessment(ScoredAssessmentValue(answers: Self.gad7)),
                                         .scoredAssessment(ScoredAssessmentValue(answers: Self.phq9))])
        #expect(fetched.map(\.startDate) == [Self.date, Self.date])
    }

    @Test func deletingAnAssessmentRemovesItsAnswers() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert([Self.record(.PHQ9, Self.phq9)], source: Self.owner)
        let stored = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM scored_assessments") }
        #expect(stored == 1)
        let deleted = try await database.samples.delete([ObjectReference(typeIdentifier: HKScoredAssessmentTypeIdentifier.PHQ9.rawValue,
                                                                         uuid: uuids[0])],
                                                        appID: Self.owner.bundleIdentifier)
        #expect(deleted == 1)
        let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM scored_assessments") }
        #expect(left == 0)
    }
}
