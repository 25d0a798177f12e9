import Foundation
import HealthModel
import HealthStore
import Logging

/// Appends a finished call's entry to the access log. A failed append does not fail the call:
/// by then the call's effect is committed (a save cannot be taken back, and an app told it
/// failed would save again) and its data has been sent. Nor is the entry dropped: when the
/// store cannot take it (disk full, healthd started read-only) the whole entry — actor, app,
/// action, types, count, detail; never a health value — goes to healthd's own log (stderr,
/// usually the journal, on another file system), with the cause, marked as outside the hash
/// chain (SECURITY.md, "Bad input").
struct AccessLogRecorder: Sendable {
    let context: BrokerContext

    /// A refused app call: the app, the types it named if the handler got as far as reporting
    /// them (only known type identifiers: an unknown one is text the app made up), count 0.
    /// Rate-limited through `context.refusals`: a repeat of the same refusal within the interval
    /// is counted into one later entry instead of written.
    func appendRefusal(_ refusal: CallRefusal, app: AppManifest, types: [String]) async {
        let known = types.filter { HKObjectType.type(forIdentifier: $0) != nil }
        let entries = context.refusals.admit(actor: app.id, appID: app.id, detail: refusal.detail, types: known)
        await appendRefused(entries, method: refusal.method)
    }

    /// A connection on the app socket refused because its process is no installed app: the
    /// throttle's entries for it (`RefusalLogThrottle`), queued without waiting
    /// (`RefusedConnectionLog`) with the time of the refusal, and written by the queue's drain
    /// (`appendRefusedConnections`) — in the log when the store is open, in the pending journal
    /// (sealed, durable) while it is locked, like every other entry (`StoreHandle.recordAccess`).
    /// Rate-limited like `appendRefusal`.
    func queueRefusedConnection(reason: String) {
        let entries = context.refusals.admit(actor: AccessLogEntry.unidentifiedActor, appID: nil,
                                             detail: "connection refused: \(reason)", types: [])
        context.connections.refusedConnections.offer(entries)
    }

    /// Writes queued refusals of connections, each at the time it was refused; first, when the
    /// queue dropped some since the last write, one entry that says how many.
    func appendRefusedConnections(_ refusals: [RefusedConnectionLog.Refusal], droppedBefore: Int) async {
        var writes = refusals.map { ($0.entry.detail, $0.time) }
        if droppedBefore > 0 {
            writes.insert(("connection refusals not logged: \(droppedBefore) (the queue of refusals to log was full)",
                           refusals.first?.time ?? Date()), at: 0)
        }
        for (detail, time) in writes {
            do {
                try await context.store.recordAccess(actor: AccessLogEntry.unidentifiedActor, appID: nil, action: .refused,
                                                     types: [], count: 0, detail: detail, at: time)
            } catch {
                unstored(actor: AccessLogEntry.unidentifiedActor, appID: nil, action: .refused, types: [], count: 0,
                         detail: detail, error)
            }
        }
    }

    /// Writes the counts of refusal intervals that are over (`RefusalLogThrottle.expired`).
    func appendExpiredRefusalCounts() async {
        await appendRefused(context.refusals.expired(), method: "refusal summary")
    }

    private func appendRefused(_ entries: [RefusalLogThrottle.Entry], method: String) async {
        guard !entries.isEmpty else { return }
        do {
            for entry in entries {
                try await context.store.recordAccess(actor: entry.actor, appID: entry.appID, action: .refused,
                                                     types: entry.types, count: 0, detail: entry.detail)
            }
        } catch {
            for entry in entries {
                unstored(actor: entry.actor, appID: entry.appID, action: .refused, types: entry.types, count: 0,
                         detail: entry.detail, error)
            }
        }
    }

    /// The entry the store could not take, in full, in healthd's log.
    private func unstored(actor: String, appID: String?, action: AccessAction, types: [String], count: Int,
                          detail: String, _ error: any Error) {
        let cause = StoreIOFailure(error, directory: context.store.directory, readOnlyReason: context.store.readOnlyReason)?
            .logDescription ?? "\(type(of: error))"
        context.logger.error("access log entry not stored; recorded here instead (not in the hash chain)", metadata: [
            "actor": "\(actor)", "app": "\(appID ?? "")", "action": "\(action.rawValue)",
            // How many types, not which: the journal is unencrypted, and type names are health
            // information (DESIGN.md §5); the entry's other fields name no type.
            "types": "\(types.count)", "count": "\(count)", "detail": "\(detail)", "cause": "\(cause)",
        ])
    }

    /// The actor an entry names for a call: the app, or the user's manager (admin socket).
    static func actor(of caller: Caller) -> String {
        caller.appManifest?.id ?? AccessLogEntry.managerActor
    }

    /// A finished call's entry, through the store's group-commit queue: entries of calls that end
    /// together (reads, grant changes) and saves committing meanwhile share one commit and one
    /// fsync; the entry is durable when this returns, before the reply goes out. Written whatever
    /// became of the call — cancelled, its app gone — since `StoreHandle.recordAccess` cannot be
    /// cancelled.
    func append(method: String, action: AccessAction, caller: Caller, facts: CallAccessReport.Facts, outcome: String?) async {
        let actor = Self.actor(of: caller)
        var detail = facts.detail
        if let outcome { detail += detail.isEmpty ? outcome : "; \(outcome)" }
        do {
            try await context.store.recordAccess(actor: actor, appID: facts.appID, action: action,
                                                 types: facts.types, count: facts.count, detail: detail)
        } catch {
            unstored(actor: actor, appID: facts.appID, action: action, types: facts.types, count: facts.count,
                     detail: detail, error)
        }
    }
}
