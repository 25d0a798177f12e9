import HealthModel
import HealthStore
import Logging

/// Appends a finished call's entry to the access log. A failed append does not fail the call:
/// by then the call's effect is committed (a save cannot be taken back, and an app told it
/// failed would save again) and its data has been sent. The failure goes to healthd's own log,
/// naming the method and the error's type only, never a value.
struct AccessLogRecorder: Sendable {
    let context: BrokerContext

    func append(method: String, action: AccessAction, caller: Caller, facts: CallAccessReport.Facts, outcome: String?) async {
        let actor = caller.appManifest?.id ?? AccessLogEntry.managerActor
        var detail = facts.detail
        if let outcome { detail += detail.isEmpty ? outcome : "; \(outcome)" }
        do {
            _ = try await context.store.withDatabase { database in
                try database.accessLog.append(actor: actor, appID: facts.appID, action: action,
                                              types: facts.types, count: facts.count, detail: detail)
            }
        } catch {
            context.logger.error("access log append failed", metadata: [
                "method": "\(method)", "error": "\(type(of: error))",
            ])
        }
    }
}
