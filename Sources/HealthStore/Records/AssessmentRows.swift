import Foundation
import GRDB
import HealthModel

/// A GAD-7 or PHQ-9 assessment's side row (`scored_assessments`): its answers.
enum AssessmentRows {
    /// Stores the answers of a validated assessment (row id `objectID`); other values are not
    /// this table's. Validation bounds every answer to 0…4, so each fits its byte.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        guard case let .scoredAssessment(assessment) = value else { return }
        var bytes = Data(capacity: assessment.answers.count)
        for answer in assessment.answers {
            guard let byte = UInt8(exactly: answer) else { throw StoredValueError(table: "scored_assessments") }
            bytes.append(byte)
        }
        try db.execute(sql: "INSERT INTO scored_assessments (object_id, answers) VALUES (?, ?)",
                       arguments: [objectID, bytes])
    }

    /// Whether objects of `typeIdentifier` keep their value here rather than in `objects`.
    static func holdsValue(of typeIdentifier: String) -> Bool {
        ScoredAssessmentRules.instrument(typeIdentifier) != nil
    }

    /// A fetched assessment's value; nil for other types.
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        guard holdsValue(of: typeIdentifier) else { return nil }
        guard let answers = try Data.fetchOne(db.cachedStatement(sql: "SELECT answers FROM scored_assessments WHERE object_id = ?"),
                                              arguments: [objectID]) else {
            throw StoreIntegrityError.missingAssessmentRow
        }
        return .scoredAssessment(ScoredAssessmentValue(answers: answers.map(Int.init)))
    }
}
