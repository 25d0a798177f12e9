import HealthIPC
import HealthModel
import HealthWire

/// An app's write refused by a storage bound: what it stores (`StorageUse`, checked by
/// `CallDispatcher` before the call runs) or what it journaled while the store is locked
/// (`JournalAppends`). RESOURCE_EXHAUSTED like the broker's other budgets, with the HealthKit
/// code an app can act on: `errorDataSizeExceeded` for the stored bound (HealthKit's code for a
/// size the store will not take; the app must delete or the user raise its bound), and
/// `errorDatabaseInaccessible` for the journal's (what every call meets while the store is
/// locked: try again once it is unlocked). The access log records each as a refusal.
struct StorageBoundExceeded: Error, Sendable {
    enum Bound: Sendable {
        case stored
        case journaled
    }

    let bound: Bound
    let used: Int64
    let limit: Int64

    var healthKitCode: HKError.Code {
        switch bound {
        case .stored: .errorDataSizeExceeded
        case .journaled: .errorDatabaseInaccessible
        }
    }

    var message: String {
        switch bound {
        case .stored:
            "this app stores \(ByteSize.text(used)) in the health store and may store \(ByteSize.text(limit)); "
                + "delete some of its data (what it deletes gives room back), or ask the user to raise its bound "
                + "(healthctl apps storage APP-ID --bound SIZE)"
        case .journaled:
            "the health store is locked, and this app's calls have journaled \(ByteSize.text(used)) since, of the "
                + "\(ByteSize.text(limit)) an app may until the user unlocks it (healthctl unlock); try again then"
        }
    }

    var status: RPCStatus {
        RPCStatus(.resourceExhausted, message, healthKitCode: healthKitCode)
    }

    /// The access log's refusal: the method, the code and which bound, never the sizes (the
    /// refusal log's rate limit counts refusals of one kind together).
    func refusal(method: String) -> CallRefusal {
        CallRefusal(method: method, code: healthKitCode,
                    reason: bound == .stored ? "storage bound reached" : "journal bound reached while locked")
    }
}
