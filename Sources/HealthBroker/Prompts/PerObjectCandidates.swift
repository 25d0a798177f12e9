import Foundation
import HealthModel
import HealthStore
import Logging

/// The candidates of a pending per-object request or document offer: read when the user lists
/// the requests (`healthctl object-requests`), or answers one never listed — never when the app
/// asks. So the store work is the user's, and an app's request or document query costs the same
/// whatever its read decision, whatever other apps stored (DESIGN.md §7.2, §7.3).
///
/// The one place candidates are read, and the one place that work is counted: each read logs
/// "per-object candidates read" with its rows and the store bytes it touched
/// (`PerObjectCandidateCostEndToEndTests` checks what an app's calls cause from that line).
enum PerObjectCandidates {
    /// The most objects one request offers, newest first: a listing reads a bounded index range
    /// per request (at most 1,000 summaries of a few hundred bytes); an app that needs older ones
    /// asks with a predicate. The listing is cut into frames by bytes (`PerObjectPromptList.frames`),
    /// so neither this count nor what another app stored in the objects can make it outgrow a frame.
    static let maxCandidates = 1_000

    /// `request`'s candidates now, or nil for a document offer not to be shown: the app no longer
    /// installed as it was when it asked, or no longer granted the type's read permission (the
    /// offer is the read grant's; the user's picks are per document).
    static func read(_ request: PerObjectPromptCenter.Request, _ database: HealthDatabase, logger: Logger) throws -> [SampleRecord]? {
        if let query = request.verifiableQuery {
            let found = try database.verifiableRecords.matching(query, limit: maxCandidates)
            logger.info("per-object candidates read", metadata: ["request": "\(request.id)", "app": "\(request.app.id)",
                                                                 "rows": "\(found.count)", "verifiable": "true"])
            return found.map(verifiableSummary)
        }
        var predicate = request.predicate
        if request.isOffer {
            guard try database.apps.installation(id: request.app.id) == request.installation,
                  try database.authorization.decision(app: request.app, type: request.typeIdentifier, access: .read) == .authorized else {
                return nil
            }
            // Documents of other sources: the app reads its own without asking.
            let others = SamplePredicate.not(.sources([request.app.id]))
            predicate = predicate.map { .and([others, $0]) } ?? others
        }
        let found = try database.samples.candidateSummaries(typeIdentifier: request.typeIdentifier, predicate: predicate,
                                                            undecidedFor: request.isOffer ? request.app.id : nil, limit: maxCandidates)
        logger.info("per-object candidates read", metadata: ["request": "\(request.id)", "app": "\(request.app.id)",
                                                             "rows": "\(found.rows)", "bytes": "\(found.bytes)"])
        return found.records
    }

    /// A verifiable record as a prompt's candidate: its UUID and relevant date, no value (the
    /// manager shows the record's own fields, `healthctl object-requests`).
    static func verifiableSummary(_ record: VerifiableRecord) -> SampleRecord {
        SampleRecord(uuid: record.uuid, typeIdentifier: VerifiableRecord.promptTypeIdentifier, startDate: record.relevantDate,
                     endDate: record.relevantDate, value: .category(0))
    }

    /// Checks `predicate` against `typeIdentifier` as a candidate read would compile it, reading
    /// nothing: a request the read could only refuse is refused when the app asks.
    static func validate(typeIdentifier: String, predicate: SamplePredicate?) throws {
        try SampleRepository.checkCandidatePredicate(predicate, of: typeIdentifier)
    }
}
