public import Foundation
public import HealthModel

/// What one pending-journal entry does to the store when it is merged. The broker turns an
/// entry's plaintext into one of these (the encoding is the broker's: wire messages); the store
/// applies it in the same transaction that records the entry as merged.
public enum PendingEffect: Sendable {
    /// A save accepted while locked, validated then: written as `SampleRepository.insert` would
    /// (sync-identifier upserts resolved at merge, in journal order) with the UUIDs the app was
    /// given, one per record followed by its correlation's samples.
    case save(records: [SampleRecord], source: SourceRecord, uuids: [UUID])
    /// A deletion by UUID accepted while locked: at merge, all or none, as `SampleRepository.delete`
    /// — if one of the objects is not `appID`'s (or no longer exists) nothing is deleted.
    case delete(references: [ObjectReference], appID: String)
    /// Grants the user decided while locked (answered a request, granted, revoked), applied at
    /// merge in their place among the saves, with the time they were decided.
    case grants(appID: String, decisions: [GrantDecision], at: Date)
    /// An access-log entry of a call made while locked, with the time of the call.
    case accessLog(actor: String, appID: String?, action: AccessAction, types: [String], count: Int,
                   detail: String, at: Date)
}
