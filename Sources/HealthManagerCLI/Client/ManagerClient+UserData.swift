public import Foundation
public import HealthModel
public import HealthWire

/// The user's own changes: entries, deletions, removing an app.
extension ManagerClient {
    /// Stores the user's entries (validated by healthd as an app's save); their UUIDs.
    public func addSamples(_ samples: [SampleRecord]) async throws(HealthCtlError) -> [UUID] {
        let saved: SavedUUIDs = try await unary(.addSamples, SampleList(samples),
                                                action: "add \(samples.first.map { TypeDisplayName.words(of: $0.typeIdentifier) } ?? "the") sample")
        return saved.uuids
    }

    /// Deletes (or with `dryRun`, counts) objects of any source; how many.
    public func deleteSamples(_ deletion: ManagerDeletion) async throws(HealthCtlError) -> Int {
        let deleted: DeletedCount = try await unary(.deleteSamples, deletion,
                                                    action: deletion.dryRun ? "count the samples to delete" : "delete the samples")
        return deleted.count
    }

    /// Uninstalls an app and, if asked, deletes what it saved; how many objects were deleted.
    public func removeApp(_ appID: String, deleteData: Bool) async throws(HealthCtlError) -> Int {
        let deleted: DeletedCount = try await unary(.removeApp, AppRemoval(appID: appID, deleteData: deleteData), action: "remove \(appID)")
        return deleted.count
    }
}
