public import Foundation
import GRDB
public import HealthModel

/// The medication field the user changes after saving (`healthctl medications archive`).
extension SampleRepository {
    /// Sets `is_archived` of the medication with `conceptIdentifier`, durably. Throws
    /// `errorInvalidArgument` when no medication has it (only the manager calls this, so saying
    /// so reveals nothing an app could not know).
    public func setMedicationArchived(conceptIdentifier: String, archived: Bool) async throws {
        try await commits.submit(returning: { db in
            try db.execute(sql: "UPDATE medications SET is_archived = ? WHERE concept_id = ?", arguments: [archived, conceptIdentifier])
            guard db.changesCount > 0 else {
                throw HKError(.errorInvalidArgument, "no medication has this concept identifier; list them with `healthctl medications list`")
            }
        })
    }
}
