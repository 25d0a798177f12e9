import Foundation
import HealthModel
import HealthWire

/// What `healthctl object-requests` shows of a document a query offered: healthd's prompt holds
/// no document bytes (a request may offer 1,000 documents of up to 1 MiB each), so the manager
/// reads the offered documents back by UUID, as `healthctl samples CDA` would, and keeps only
/// their header fields — what tells the user one document from another.
enum DocumentCandidateText {
    /// The header fields of `prompt`'s document candidates, by UUID; empty when it offers none.
    static func details(of prompt: PerObjectPrompt, client: ManagerClient) async throws -> [UUID: String] {
        let documents = prompt.candidates.compactMap { candidate -> UUID? in
            if case .document = candidate.value { candidate.uuid } else { nil }
        }
        guard !documents.isEmpty else { return [:] }
        var details: [UUID: String] = [:]
        let spec = SampleQuerySpec(typeIdentifier: prompt.typeIdentifier, predicate: .uuids(Set(documents)))
        for try await batch in client.querySamples(spec) {
            for record in batch.samples {
                if case let .document(value) = record.value { details[record.uuid] = DocumentText.detail(value) }
            }
        }
        return details
    }
}
