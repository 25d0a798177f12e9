public import Foundation
public import HealthWire

/// Per-object read requests and grants (vision prescriptions).
extension ManagerClient {
    /// Every pending request with all its candidates: healthd sends them in frames cut by bytes,
    /// a request's candidates possibly over several (`PerObjectPromptList.merged`).
    public func perObjectRequests() async throws(HealthCtlError) -> [PerObjectPrompt] {
        var pieces: [PerObjectPrompt] = []
        for try await frame in stream(.listPerObjectRequests, EmptyMessage(), action: "list the per-object read requests",
                                      as: PerObjectPromptList.self) {
            pieces += frame.prompts
        }
        return PerObjectPromptList.merged(pieces)
    }

    public func answerPerObjectRequest(_ requestID: UInt64, allowing uuids: [UUID]) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.answerPerObjectRequest, ObjectReadGrants(requestID: requestID, uuids: uuids),
                                              action: "answer per-object request \(requestID)")
    }

    public func objectReadGrants(appID: String) async throws(HealthCtlError) -> [UUID] {
        let reply: ObjectReadGrants = try await unary(.listObjectReadGrants, ObjectReadGrants(appID: appID),
                                                      action: "list the objects \(appID) may read")
        return reply.uuids
    }

    public func revokeObjectReadGrants(appID: String, uuids: [UUID]?) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.revokeObjectReadGrants, ObjectReadGrants(appID: appID, uuids: uuids ?? [], all: uuids == nil),
                                              action: "revoke per-object read grants of \(appID)")
    }
}
