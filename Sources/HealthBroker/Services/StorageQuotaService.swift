import HealthModel
import HealthStore
import HealthWire

/// The user's side of the storage quota (`healthctl apps quota`, `apps list`, `status`).
enum StorageQuotaService {
    /// `healthctl apps quota APP [SIZE|default]`. Needs the store unlocked: the limit lives in the
    /// encrypted store with the use it is compared to.
    static func setLimit(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let setting = try AppStorageLimitSetting(wire: payload)
        let entry = try await context.store.withDatabase(changing: "setting an app's storage quota") { database in
            guard try database.storageUse.setLimit(appID: setting.appID, bytes: setting.limitBytes) else {
                throw HKError(.errorInvalidArgument, "no installed app \(setting.appID.prefix(128)); see `healthctl apps list`")
            }
            return try database.storageUse.entry(appID: setting.appID)
        }
        context.logger.notice("storage quota set", metadata: ["app": "\(setting.appID)",
                                                               "limit": "\(setting.limitBytes.map(String.init) ?? "default")"])
        return MethodTable.Reply(wire(entry, context))
    }

    /// Every installed app's use and limit; none while locked (the use is the size of health data).
    static func entries(_ context: BrokerContext) async throws -> [AppStorageEntry] {
        try await context.store.withCurrentStore { access in
            guard case let .open(database) = access else { return [] }
            return try database.storageUse.all().map { wire($0, context) }
        }
    }

    static func state(_ context: BrokerContext) -> BrokerStatus.StorageQuotaState {
        BrokerStatus.StorageQuotaState(defaultLimitBytes: context.storageQuota.defaultLimitBytes,
                                       appWriteFloorBytes: context.storageQuota.diskFloorBytes,
                                       diskFreeBytes: context.storageQuota.freeDiskBytes())
    }

    private static func wire(_ entry: StorageUseRepository.Entry, _ context: BrokerContext) -> AppStorageEntry {
        AppStorageEntry(appID: entry.appID, usedBytes: entry.usedBytes,
                        limitBytes: entry.limitBytes ?? context.storageQuota.defaultLimitBytes,
                        isDefaultLimit: entry.limitBytes == nil)
    }
}
