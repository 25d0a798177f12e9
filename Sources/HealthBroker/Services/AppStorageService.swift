import HealthModel
import HealthStore
import HealthWire

/// The manager's view of each app's storage (`StorageUse`) and its bound: `healthctl apps storage`.
enum AppStorageService {
    /// Every installed app and every app that stores something (a removed app's data stays), with
    /// its count, its bound and, while the store is locked, what it journaled since the lock.
    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        MethodTable.Reply(try await listing(context))
    }

    /// Sets an installed app's bound (none: back to the default), durably; needs the store unlocked
    /// (the bound is kept in it). Takes effect at the app's next write.
    static func setBound(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let setting = try AppStorageBoundSetting(wire: payload)
        _ = try AdminAppID.checked(setting.appID)
        try await context.store.withDatabase(changing: "setting an app's storage bound") { database in
            guard try database.apps.find(id: setting.appID) != nil else {
                throw HKError(.errorInvalidArgument, "no installed app \(setting.appID.prefix(128)); see `healthctl apps list`")
            }
            try database.setStorageBound(setting.boundBytes, appID: setting.appID)
        }
        context.logger.notice("storage bound set", metadata: [
            "app": "\(setting.appID)", "bound": "\(setting.boundBytes.map(ByteSize.text) ?? "default")",
        ])
        return MethodTable.Reply(try await listing(context))
    }

    private static func listing(_ context: BrokerContext) async throws -> AppStorageList {
        let store = context.store
        let (installed, journaled, locked) = try await store.withCurrentStore { access -> (Set<String>, [String: Int], Bool) in
            switch access {
            case let .open(database): (Set(try database.apps.all().map(\.id)), [:], false)
            case let .locked(locked): (Set(try locked.grants.apps.all().map(\.id)), locked.journaled.entries, true)
            }
        }
        let storage = store.storage
        // Not `uniqueKeysWithValues`: entries come from stored rows, unique by bytes, and two app ids an
        // older version installed in canonically equivalent spellings are one Swift key (the first is listed).
        var entries = Dictionary(storage.entries.map { ($0.appID, $0) }, uniquingKeysWith: { first, _ in first })
        for app in installed.union(journaled.keys) where entries[app] == nil {
            entries[app] = StorageUse.Entry(appID: app, used: 0, setBound: nil)
        }
        let apps = entries.values.sorted { $0.appID < $1.appID }.map { entry in
            AppStorageList.App(appID: entry.appID, usedBytes: entry.used, boundBytes: entry.setBound ?? storage.defaultBound,
                               boundSet: entry.setBound != nil, journaledBytes: Int64(journaled[entry.appID] ?? 0),
                               installed: installed.contains(entry.appID))
        }
        return AppStorageList(apps: apps, defaultBoundBytes: storage.defaultBound, journalBoundBytes: Int64(store.journalBytesPerApp),
                              locked: locked)
    }
}
