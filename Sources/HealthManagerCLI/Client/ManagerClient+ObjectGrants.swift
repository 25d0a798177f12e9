public import Foundation
public import HealthWire

/// Per-object read requests and grants (vision prescriptions).
extension ManagerClient {
    public func perObjectRequests() async throws(HealthCtlError) -> [PerObjectPrompt] {
        let list: PerObjectPromptList = try await unary(.listPerObjectRequests, EmptyMessage(), action: "list the per-object read requests")
        return list.prompts
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
