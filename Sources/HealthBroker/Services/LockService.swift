import HealthModel
import HealthStore
import HealthWire

/// The manager's Lock and Unlock (StoreHandle+Lock). The passcode arrives only here, on the
/// admin socket, into a `Passcode` (cleansed when released); the decoded copies are erased and
/// it is never logged or put in an error.
enum LockService {
    static func lock(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        guard await !context.store.isLocked else { throw HKError(.errorInvalidArgument, "the health store is already locked") }
        try await context.store.lock()
        context.logger.notice("store locked", metadata: ["store": "\(context.store.directory)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func unlock(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let passcode = request.passcode.isEmpty ? nil : Passcode(consuming: &request.passcode)
        request.erase()
        let report: PendingJournalMerge.Report
        do {
            report = try await context.store.unlock(passcode: passcode) {
                context.logger.notice("store reopened; merging the pending journal", metadata: ["store": "\(context.store.directory)"])
            }
        } catch let error as StoreOpenError {
            context.logger.warning("unlock refused or failed", metadata: ["reason": "\(error)"])
            switch error {
            case .passcodeRequired, .wrongPasscode:
                throw HKError(.errorAuthorizationDenied, error.description)
            default:
                throw HKError(.errorDatabaseInaccessible, error.description)
            }
        }
        context.logger.notice("store unlocked", metadata: [
            "store": "\(context.store.directory)", "merged": "\(report.merged)", "damaged": "\(report.damaged.count)", "refused": "\(report.refused.total)",
        ])
        if !report.budgetStopped.isEmpty {
            context.logger.warning("journaled deletions by predicate went past their merge budget and changed nothing", metadata: [
                "apps": "\(report.budgetStopped.keys.sorted())"])
        }
        // A healthd started locked never read its registrations: all of them load now (again, at a
        // later unlock, which changes nothing).
        if context.store.startedLocked { context.backgroundDelivery.reloadAllRegistrations() }
        // Registrations enabled or disabled while locked reach the launch schedule now.
        for appID in report.backgroundDeliveryApps.sorted() {
            context.backgroundDelivery.registrationsChanged(appID: appID)
        }
        for damaged in report.damaged {
            context.logger.error("pending journal damaged", metadata: ["detail": "\(damaged)"])
        }
        MergeRefusalLog.write(report.refused, context.logger)
        let refused = MergeRefusalLog.wire(report.refused)
        return MethodTable.Reply(UnlockReport(merged: report.merged, damaged: report.damaged.map(\.description),
                                              refused: refused.refused, refusedMore: refused.more))
    }
}
