import COpenHealthProto

/// ListAppStorageResponse: each app's storage use and bound (healthctl apps storage).
public struct AppStorageList: WireMessage, Equatable {
    public struct App: Sendable, Equatable {
        public var appID: String
        public var usedBytes: Int64
        /// The bound in force: the one the user set, else the default.
        public var boundBytes: Int64
        public var boundSet: Bool
        /// Saved into the pending journal since the store locked (0 while unlocked).
        public var journaledBytes: Int64
        public var installed: Bool

        public init(appID: String, usedBytes: Int64, boundBytes: Int64, boundSet: Bool, journaledBytes: Int64, installed: Bool) {
            self.appID = appID
            self.usedBytes = usedBytes
            self.boundBytes = boundBytes
            self.boundSet = boundSet
            self.journaledBytes = journaledBytes
            self.installed = installed
        }
    }

    public var apps: [App]
    public var defaultBoundBytes: Int64
    public var journalBoundBytes: Int64
    public var locked: Bool

    public init(apps: [App], defaultBoundBytes: Int64, journalBoundBytes: Int64, locked: Bool) {
        self.apps = apps
        self.defaultBoundBytes = defaultBoundBytes
        self.journalBoundBytes = journalBoundBytes
        self.locked = locked
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ListAppStorageResponse.self, from: bytes) { wire in
            AppStorageList(
                apps: WireRead.messages(wire.apps, count: wire.n_apps).map { app in
                    App(appID: WireRead.string(app.app_id), usedBytes: Self.signed(app.used_bytes), boundBytes: Self.signed(app.bound_bytes),
                        boundSet: app.bound_set != 0, journaledBytes: Self.signed(app.journaled_bytes), installed: app.installed != 0)
                },
                defaultBoundBytes: Self.signed(wire.default_bound_bytes), journalBoundBytes: Self.signed(wire.journal_bound_bytes),
                locked: wire.locked != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListAppStorageResponse.initialized()
        let built = apps.map { app in
            arena.message { (entry: inout Openhealth__V1__AppStorage) in
                entry.app_id = arena.string(app.appID)
                entry.used_bytes = UInt64(max(0, app.usedBytes))
                entry.bound_bytes = UInt64(max(0, app.boundBytes))
                entry.bound_set = app.boundSet ? 1 : 0
                entry.journaled_bytes = UInt64(max(0, app.journaledBytes))
                entry.installed = app.installed ? 1 : 0
            }
        }
        wire.n_apps = built.count
        wire.apps = arena.messages(built)
        wire.default_bound_bytes = UInt64(max(0, defaultBoundBytes))
        wire.journal_bound_bytes = UInt64(max(0, journalBoundBytes))
        wire.locked = locked ? 1 : 0
        return ProtobufCodec.encode(wire)
    }

    /// A byte count off the wire, held as Int64 (a peer's value past 2^63 is clamped).
    private static func signed(_ value: UInt64) -> Int64 {
        Int64(clamping: value)
    }
}

/// SetAppStorageBoundRequest: one app's storage bound; nil returns it to the default.
public struct AppStorageBoundSetting: WireMessage, Equatable {
    public var appID: String
    public var boundBytes: Int64?

    public init(appID: String, boundBytes: Int64?) {
        self.appID = appID
        self.boundBytes = boundBytes
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SetAppStorageBoundRequest.self, from: bytes) { wire in
            AppStorageBoundSetting(appID: WireRead.string(wire.app_id),
                                   boundBytes: wire.bound_bytes == 0 ? nil : Int64(clamping: wire.bound_bytes))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SetAppStorageBoundRequest.initialized()
        wire.app_id = arena.string(appID)
        wire.bound_bytes = UInt64(max(0, boundBytes ?? 0))
        return ProtobufCodec.encode(wire)
    }
}
