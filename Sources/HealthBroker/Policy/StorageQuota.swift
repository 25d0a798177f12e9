import Glibc
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Synchronization

/// The per-app storage quota (SECURITY.md "Storage quota"): the one check every app write passes
/// before its work is queued (`CallDispatcher`, for the methods `MethodTable.storage(of:)` says
/// add data). A write is admitted when the app's stored bytes (`storage_use`, kept by the store's
/// triggers in each write's transaction), plus the bytes of its writes still in flight, plus —
/// while the store is locked — what it journaled since the lock, plus this request's bytes, fit
/// its limit; and when the disk holding the store keeps `appWriteDiskFloor` free. Otherwise the
/// whole request is refused before anything of it is stored.
///
/// The request's size stands for what it will store: the check needs a number before any work,
/// and a request's bytes are what the app controls. The rows it becomes are then counted exactly
/// by the triggers, so an app may pass its limit by at most what its admitted calls stored beyond
/// their request's size; its next write is refused.
final class StorageQuota: Sendable {
    private let defaultLimit: Int64
    private let diskFloor: Int64
    private let directory: String
    private let state = Mutex(State())

    private struct State {
        /// Bytes of admitted calls not finished yet, per app.
        var inFlight: [String: Int64] = [:]
        /// Bytes admitted while the store was locked (the pending journal's growth), per app;
        /// cleared once the store is open again (the merge has counted them in `storage_use`).
        var journaled: [String: Int64] = [:]
        /// The last use and limit read from the open store, for while it is locked.
        var known: [String: StorageUseRepository.Entry] = [:]
    }

    init(limits: BrokerLimits, storeDirectory: String) {
        defaultLimit = limits.storageQuotaPerApp
        diskFloor = limits.appWriteDiskFloor
        directory = storeDirectory
    }

    /// What an admitted write holds until it ends: `release()` gives its bytes back (once).
    final class Claim: Sendable {
        private let release: Mutex<(@Sendable () -> Void)?>

        init(_ release: @escaping @Sendable () -> Void) {
            self.release = Mutex(release)
        }

        func end() {
            let body = release.withLock { body in
                defer { body = nil }
                return body
            }
            body?()
        }
    }

    /// Admits `bytes` for `app`, reading its use from the store as it is now (open or locked).
    func admit(app: String, bytes: Int, store: StoreHandle) async throws(StorageQuotaRefusal) -> Claim {
        let stored: StorageUseRepository.Entry?
        do {
            stored = try await store.withCurrentStore { access in
                switch access {
                case let .open(database): try database.storageUse.entry(appID: app)
                case .locked: nil
                }
            }
        } catch {
            // The store cannot be reached (a key change that never ended): the write's own path
            // reports that; the quota checks against what it last knew.
            stored = nil
        }
        return try admit(app: app, bytes: bytes, stored: stored)
    }

    /// `admit` inside a write already holding the open store (`CallDispatcher.commitNow`).
    func admitNow(app: String, bytes: Int, database: HealthDatabase) throws -> Claim {
        try admit(app: app, bytes: bytes, stored: try database.storageUse.entry(appID: app))
    }

    /// `stored`: the app's entry read from the open store, or nil while it is locked.
    private func admit(app: String, bytes: Int, stored: StorageUseRepository.Entry?) throws(StorageQuotaRefusal) -> Claim {
        let free = freeDiskBytes()
        if let free, free < diskFloor { throw .diskBelowFloor(app: app, freeBytes: free, floorBytes: diskFloor) }
        // At least a byte: an empty request may still store (a default-valued message), and a
        // quota of 0 must stop every write.
        let adding = Int64(max(1, bytes))
        let locked = stored == nil
        let refusal: StorageQuotaRefusal? = state.withLock { state in
            if let stored {
                state.known[app] = stored
                if !state.journaled.isEmpty { state.journaled = [:] }
            }
            let entry = stored ?? state.known[app] ?? StorageUseRepository.Entry(appID: app, usedBytes: 0, limitBytes: nil)
            let limit = entry.limitBytes ?? defaultLimit
            let pending = state.inFlight[app, default: 0] + state.journaled[app, default: 0]
            let used = entry.usedBytes.addingReportingOverflow(pending).partialValue
            if used.addingReportingOverflow(adding).partialValue > limit || used > Int64.max - adding {
                return .overQuota(app: app, usedBytes: used, limitBytes: limit, requestBytes: adding,
                                  isDefault: entry.limitBytes == nil)
            }
            state.inFlight[app, default: 0] += adding
            if locked { state.journaled[app, default: 0] += adding }
            return nil
        }
        if let refusal { throw refusal }
        return Claim { [self] in
            self.state.withLock { state in
                let left = state.inFlight[app, default: adding] - adding
                state.inFlight[app] = left > 0 ? left : nil
            }
        }
    }

    /// The default limit, for listings.
    var defaultLimitBytes: Int64 { defaultLimit }
    var diskFloorBytes: Int64 { diskFloor }

    /// Bytes an unprivileged writer may still take on the store's file system; nil when it
    /// cannot be asked (the floor then does not refuse: the write's own path meets ENOSPC).
    func freeDiskBytes() -> Int64? {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return nil }
        let (product, overflow) = Int64(clamping: info.f_bavail).multipliedReportingOverflow(by: Int64(clamping: info.f_frsize))
        return overflow ? Int64.max : product
    }
}

/// Why an app's write was refused by the storage quota. Its status says what the user can do.
enum StorageQuotaRefusal: Error, Sendable {
    case overQuota(app: String, usedBytes: Int64, limitBytes: Int64, requestBytes: Int64, isDefault: Bool)
    case diskBelowFloor(app: String, freeBytes: Int64, floorBytes: Int64)

    /// RESOURCE_EXHAUSTED with errorDataSizeExceeded, the HealthKit code closest to "too much
    /// data" (Apple has none for a quota; Sources/HealthKit/README.md).
    var status: RPCStatus {
        RPCStatus(.resourceExhausted, message, healthKitCode: .errorDataSizeExceeded)
    }

    var message: String {
        switch self {
        case let .overQuota(app, used, limit, request, isDefault):
            let app = app.prefix(128)
            return """
                \(app) has stored \(StorageSize.describe(used)) of its \(StorageSize.describe(limit)) storage quota\
                \(isDefault ? " (the default)" : ""); this request of \(StorageSize.describe(request)) was not saved, none of it. \
                Delete some of \(app)'s data, or raise its quota: healthctl apps quota \(app) SIZE
                """
        case let .diskBelowFloor(_, free, floor):
            return """
                the disk holding the health store has \(StorageSize.describe(free)) free, less than the \
                \(StorageSize.describe(floor)) healthd keeps for itself and the user's own changes; nothing was saved. \
                Free disk space, then try again
                """
        }
    }
}
