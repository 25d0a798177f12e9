import COpenHealthProto
public import Foundation
public import HealthModel

// The payloads of the manager's HealthManager service (proto/openhealth/v1/health_manager.proto).

extension GrantDecision {
    func build(in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__GrantDecision> {
        arena.message { (wire: inout Openhealth__V1__GrantDecision) in
            wire.type = arena.string(typeIdentifier)
            wire.access = Openhealth__V1__Access(rawValue: UInt32(access.rawValue))
            wire.decision = Openhealth__V1__Decision(rawValue: UInt32(decision.rawValue))
            wire.window_us = limits.dataWindow.map { Int64(($0 * 1_000_000).rounded()) } ?? 0
            wire.expires_us = limits.expiry?.microsecondsSince1970 ?? 0
        }
    }

    static func read(_ wire: Openhealth__V1__GrantDecision) throws(WireDecodeError) -> GrantDecision {
        guard let access = AccessKind(rawValue: Int(wire.access.rawValue)) else { throw .invalidField("access must be read or share") }
        guard let decision = AuthorizationDecision(rawValue: Int(wire.decision.rawValue)) else { throw .invalidField("unknown decision") }
        guard wire.window_us >= 0 else { throw .invalidField("window_us must not be negative") }
        let limits = GrantLimits(dataWindow: wire.window_us == 0 ? nil : Double(wire.window_us) / 1_000_000,
                                 expiry: wire.expires_us == 0 ? nil : Date(microsecondsSince1970: wire.expires_us))
        return GrantDecision(WireRead.string(wire.type), access, decision, limits: limits)
    }

    static func buildList(_ decisions: [GrantDecision], in arena: WireArena)
        -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__GrantDecision>?>?) {
        let built = decisions.map { $0.build(in: arena) }
        return (built.count, arena.messages(built))
    }

    static func readList(_ pointer: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__GrantDecision>?>?, count: Int) throws -> [GrantDecision] {
        try WireRead.messages(pointer, count: count).map(read)
    }
}

/// A pending authorization prompt, as the manager shows it.
public struct AuthorizationPrompt: WireMessage, Hashable {
    public var requestID: UInt64
    public var appID: String
    public var appDisplayName: String
    public var readUsageDescription: String
    public var shareUsageDescription: String
    public var readTypes: [String]
    public var shareTypes: [String]

    public init(requestID: UInt64, appID: String, appDisplayName: String, readUsageDescription: String,
                shareUsageDescription: String, readTypes: [String], shareTypes: [String]) {
        self.requestID = requestID
        self.appID = appID
        self.appDisplayName = appDisplayName
        self.readUsageDescription = readUsageDescription
        self.shareUsageDescription = shareUsageDescription
        self.readTypes = readTypes
        self.shareTypes = shareTypes
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AuthorizationPrompt.self, from: bytes, Self.read)
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        return ProtobufCodec.encode(build(in: arena).pointee)
    }

    func build(in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__AuthorizationPrompt> {
        arena.message { (wire: inout Openhealth__V1__AuthorizationPrompt) in
            wire.request_id = requestID
            wire.app_id = arena.string(appID)
            wire.app_display_name = arena.string(appDisplayName)
            wire.read_usage_description = arena.string(readUsageDescription)
            wire.share_usage_description = arena.string(shareUsageDescription)
            wire.n_read_types = readTypes.count
            wire.read_types = arena.strings(readTypes)
            wire.n_share_types = shareTypes.count
            wire.share_types = arena.strings(shareTypes)
        }
    }

    static func read(_ wire: Openhealth__V1__AuthorizationPrompt) -> AuthorizationPrompt {
        AuthorizationPrompt(
            requestID: wire.request_id, appID: WireRead.string(wire.app_id),
            appDisplayName: WireRead.string(wire.app_display_name),
            readUsageDescription: WireRead.string(wire.read_usage_description),
            shareUsageDescription: WireRead.string(wire.share_usage_description),
            readTypes: WireRead.strings(wire.read_types, count: wire.n_read_types),
            shareTypes: WireRead.strings(wire.share_types, count: wire.n_share_types))
    }
}

/// ListRequestsResponse.
public struct PromptList: WireMessage, Equatable {
    public var prompts: [AuthorizationPrompt]
    public init(_ prompts: [AuthorizationPrompt]) { self.prompts = prompts }

    public init(wire bytes: [UInt8]) throws {
        prompts = try ProtobufCodec.withDecoded(Openhealth__V1__ListRequestsResponse.self, from: bytes) { wire in
            WireRead.messages(wire.requests, count: wire.n_requests).map(AuthorizationPrompt.read)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListRequestsResponse.initialized()
        let built = prompts.map { $0.build(in: arena) }
        wire.n_requests = built.count
        wire.requests = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// AnswerRequestRequest: the user's decision for each type of one prompt.
public struct PromptAnswer: WireMessage, Equatable {
    public var requestID: UInt64
    public var decisions: [GrantDecision]

    public init(requestID: UInt64, decisions: [GrantDecision]) {
        self.requestID = requestID
        self.decisions = decisions
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AnswerRequestRequest.self, from: bytes) { wire in
            PromptAnswer(requestID: wire.request_id, decisions: try GrantDecision.readList(wire.decisions, count: wire.n_decisions))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AnswerRequestRequest.initialized()
        wire.request_id = requestID
        (wire.n_decisions, wire.decisions) = GrantDecision.buildList(decisions, in: arena)
        return ProtobufCodec.encode(wire)
    }
}

/// SetGrantsRequest (and, without decisions, ListGrantsRequest / LaunchBindRequest by app id).
public struct AppGrants: WireMessage, Equatable {
    public var appID: String
    public var decisions: [GrantDecision]

    public init(appID: String, decisions: [GrantDecision] = []) {
        self.appID = appID
        self.decisions = decisions
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SetGrantsRequest.self, from: bytes) { wire in
            AppGrants(appID: WireRead.string(wire.app_id), decisions: try GrantDecision.readList(wire.decisions, count: wire.n_decisions))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SetGrantsRequest.initialized()
        wire.app_id = arena.string(appID)
        (wire.n_decisions, wire.decisions) = GrantDecision.buildList(decisions, in: arena)
        return ProtobufCodec.encode(wire)
    }
}

/// ListGrantsResponse.
public struct GrantList: WireMessage, Equatable {
    public var grants: [GrantDecision]
    public init(_ grants: [GrantDecision]) { self.grants = grants }

    public init(wire bytes: [UInt8]) throws {
        grants = try ProtobufCodec.withDecoded(Openhealth__V1__ListGrantsResponse.self, from: bytes) { wire in
            try GrantDecision.readList(wire.grants, count: wire.n_grants)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListGrantsResponse.initialized()
        (wire.n_grants, wire.grants) = GrantDecision.buildList(grants, in: arena)
        return ProtobufCodec.encode(wire)
    }
}

/// InstallAppRequest / ListAppsResponse.
public struct ManifestList: WireMessage, Equatable {
    public var manifests: [AppManifest]
    /// The apps the user allowed to connect directly (healthctl apps allow-direct).
    public var directConnectionAppIDs: Set<String>
    /// The apps the user allowed network access (healthctl apps allow-network).
    public var networkAppIDs: Set<String>
    public init(_ manifests: [AppManifest], directConnectionAppIDs: Set<String> = [], networkAppIDs: Set<String> = []) {
        self.manifests = manifests
        self.directConnectionAppIDs = directConnectionAppIDs
        self.networkAppIDs = networkAppIDs
    }

    public init(wire bytes: [UInt8]) throws {
        (manifests, directConnectionAppIDs, networkAppIDs) = try ProtobufCodec.withDecoded(Openhealth__V1__ListAppsResponse.self, from: bytes) { wire in
            (WireRead.messages(wire.apps, count: wire.n_apps).map { app in
                func optional(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
                    let value = WireRead.string(pointer)
                    return value.isEmpty ? nil : value
                }
                return AppManifest(
                    id: WireRead.string(app.id), displayName: WireRead.string(app.display_name),
                    executable: WireRead.string(app.executable), version: WireRead.string(app.version),
                    readUsageDescription: optional(app.read_usage_description),
                    shareUsageDescription: optional(app.share_usage_description),
                    entitlements: WireRead.strings(app.entitlements, count: app.n_entitlements), network: app.network != 0)
            }, Set(WireRead.strings(wire.direct_connection_app_ids, count: wire.n_direct_connection_app_ids)),
             Set(WireRead.strings(wire.network_app_ids, count: wire.n_network_app_ids)))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListAppsResponse.initialized()
        let built = manifests.map { manifest in
            arena.message { (app: inout Openhealth__V1__AppManifest) in
                app.id = arena.string(manifest.id)
                app.display_name = arena.string(manifest.displayName)
                app.executable = arena.string(manifest.executable)
                app.version = arena.string(manifest.version)
                app.read_usage_description = arena.string(manifest.readUsageDescription ?? "")
                app.share_usage_description = arena.string(manifest.shareUsageDescription ?? "")
                app.n_entitlements = manifest.entitlements.count
                app.entitlements = arena.strings(manifest.entitlements)
                app.network = manifest.network ? 1 : 0
            }
        }
        wire.n_apps = built.count
        wire.apps = arena.messages(built)
        let direct = directConnectionAppIDs.sorted()
        wire.n_direct_connection_app_ids = direct.count
        wire.direct_connection_app_ids = arena.strings(direct)
        let network = networkAppIDs.sorted()
        wire.n_network_app_ids = network.count
        wire.network_app_ids = arena.strings(network)
        return ProtobufCodec.encode(wire)
    }
}

/// SetDirectConnectionRequest: the user's opt-in (or its revocation) to direct connections for one app.
public struct DirectConnectionSetting: WireMessage, Equatable {
    public var appID: String
    public var allowed: Bool

    public init(appID: String, allowed: Bool) {
        self.appID = appID
        self.allowed = allowed
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SetDirectConnectionRequest.self, from: bytes) { wire in
            DirectConnectionSetting(appID: WireRead.string(wire.app_id), allowed: wire.allowed != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SetDirectConnectionRequest.initialized()
        wire.app_id = arena.string(appID)
        wire.allowed = allowed ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}

/// StatusResponse.
public struct BrokerStatus: WireMessage, Equatable {
    public var storeDirectory: String
    public var appSocket: String
    public var adminSocket: String
    public var installedApps: Int
    public var pendingRequests: Int
    public var connectedApps: Int
    public var sampleCount: Int
    public var version: String
    /// Why the store is read-only (healthd started while its disk was full); empty when writable.
    public var readOnlyReason: String
    /// The store is locked (`healthctl unlock`); its sample count then reads 0.
    public var locked: Bool
    /// How healthd runs: started by a service manager, its idle exit, its process.
    public var service = ServiceState()
    /// The store folder's files, in bytes.
    public var storeBytes: Int = 0
    /// The last backup or export (nil: never).
    public var lastExport: Date?
    /// What walls healthd in, and whether it can identify peers (fields 26–29).
    public var confinement = Confinement()
    /// Multi-frame answers healthd read again since it started, because an object their reader
    /// could see left the store or its grants changed while they waited (field 91). A deletion
    /// the reader cannot see never counts here: SECURITY.md, "A second reading is bounded by the first".
    public var answersReadAgain = 0
    /// Store visits long-running queries made in a query slot since healthd started (field 100),
    /// and watch computations (field 101): what hidden events must not move (SECURITY.md).
    public var longRunningSlotVisits = 0
    public var watchComputations = 0
    /// Pending journals a merge kept as damaged, oldest first (field 98; at most
    /// `DamagedPendingJournal.maxListed`): shown until the user removes them.
    public var damagedJournals: [DamagedPendingJournal] = []

    /// healthd's own confinement (SECURITY.md "healthd's own confinement").
    public struct Confinement: Equatable, Sendable {
        /// The Landlock ABI its files are walled in with; 0: not walled in.
        public var landlockABI = 0
        /// Why not, when `landlockABI` is 0 (a kernel without Landlock).
        public var landlockMissingReason = ""
        /// Its seccomp filter (no exec, no network sockets) is in force.
        public var seccompFiltered = false
        public var peerInspector = PeerInspector.unspecified

        /// Whether the peer inspector, which reads connecting processes' /proc for healthd, answers.
        public enum PeerInspector: Int, Sendable {
            /// An older healthd that does not say.
            case unspecified = 0
            /// healthd reads /proc itself.
            case inProcess = 1
            case answering = 2
            /// Every connection is refused until healthd restarts.
            case gone = 3
        }

        public init(landlockABI: Int = 0, landlockMissingReason: String = "", seccompFiltered: Bool = false,
                    peerInspector: PeerInspector = .unspecified) {
            self.landlockABI = landlockABI
            self.landlockMissingReason = landlockMissingReason
            self.seccompFiltered = seccompFiltered
            self.peerInspector = peerInspector
        }
    }

    /// healthd's process and how it was started.
    public struct ServiceState: Equatable, Sendable {
        public var socketActivated = false
        /// Seconds idle before a socket-activated healthd exits; 0 never.
        public var idleExitSeconds = 0
        public var processID: Int32 = 0
        public var started: Date?

        public init(socketActivated: Bool = false, idleExitSeconds: Int = 0, processID: Int32 = 0, started: Date? = nil) {
            self.socketActivated = socketActivated
            self.idleExitSeconds = idleExitSeconds
            self.processID = processID
            self.started = started
        }
    }

    public init(storeDirectory: String, appSocket: String, adminSocket: String, installedApps: Int,
                pendingRequests: Int, connectedApps: Int, sampleCount: Int, version: String, readOnlyReason: String = "",
                locked: Bool = false, service: ServiceState = ServiceState(), storeBytes: Int = 0, lastExport: Date? = nil,
                confinement: Confinement = Confinement(), answersReadAgain: Int = 0, damagedJournals: [DamagedPendingJournal] = []) {
        self.confinement = confinement
        self.damagedJournals = damagedJournals
        self.answersReadAgain = answersReadAgain
        self.readOnlyReason = readOnlyReason
        self.locked = locked
        self.service = service
        self.storeBytes = storeBytes
        self.lastExport = lastExport
        self.storeDirectory = storeDirectory
        self.appSocket = appSocket
        self.adminSocket = adminSocket
        self.installedApps = installedApps
        self.pendingRequests = pendingRequests
        self.connectedApps = connectedApps
        self.sampleCount = sampleCount
        self.version = version
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__StatusResponse.self, from: bytes) { wire in
            guard wire.n_damaged_journals <= DamagedPendingJournal.maxListed else {
                throw WireDecodeError.invalidField("more than \(DamagedPendingJournal.maxListed) damaged journals")
            }
            return BrokerStatus(
                storeDirectory: WireRead.string(wire.store_directory), appSocket: WireRead.string(wire.app_socket),
                adminSocket: WireRead.string(wire.admin_socket), installedApps: Int(wire.installed_apps),
                pendingRequests: Int(wire.pending_requests), connectedApps: Int(wire.connected_apps),
                sampleCount: Int(wire.sample_count), version: WireRead.string(wire.version),
                readOnlyReason: WireRead.string(wire.read_only_reason), locked: wire.locked != 0,
                service: ServiceState(socketActivated: wire.socket_activated != 0, idleExitSeconds: Int(wire.idle_exit_seconds),
                                      processID: Int32(clamping: wire.process_id), started: Self.date(wire.started_time)),
                storeBytes: Int(clamping: wire.store_bytes), lastExport: Self.date(wire.last_export_time),
                confinement: Confinement(landlockABI: Int(wire.landlock_abi),
                                         landlockMissingReason: WireRead.string(wire.landlock_missing_reason),
                                         seccompFiltered: wire.seccomp_filtered != 0,
                                         // A value a newer healthd may add reads as unspecified.
                                         peerInspector: Confinement.PeerInspector(rawValue: Int(wire.peer_inspector.rawValue)) ?? .unspecified),
                answersReadAgain: Int(clamping: wire.answers_read_again),
                damagedJournals: WireRead.messages(wire.damaged_journals, count: wire.n_damaged_journals).map { journal in
                    DamagedPendingJournal(path: WireRead.string(journal.path), bytes: Int(clamping: journal.bytes),
                                   kept: Self.date(journal.kept_time), lost: WireRead.string(journal.lost))
                })
            .with(longRunningSlotVisits: Int(clamping: wire.long_running_slot_visits), watchComputations: Int(clamping: wire.watch_computations))
        }
    }

    /// This status with the long-running work counts set.
    public func with(longRunningSlotVisits: Int, watchComputations: Int) -> BrokerStatus {
        var status = self
        status.longRunningSlotVisits = longRunningSlotVisits
        status.watchComputations = watchComputations
        return status
    }

    /// A time on the wire (seconds since 1970, 0 for none): a value that is not a finite positive
    /// number is none rather than a nonsensical date.
    private static func date(_ seconds: Double) -> Date? {
        seconds.isFinite && seconds > 0 ? Date(timeIntervalSince1970: seconds) : nil
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__StatusResponse.initialized()
        wire.store_directory = arena.string(storeDirectory)
        wire.app_socket = arena.string(appSocket)
        wire.admin_socket = arena.string(adminSocket)
        wire.installed_apps = UInt32(clamping: installedApps)
        wire.pending_requests = UInt32(clamping: pendingRequests)
        wire.read_only_reason = arena.string(readOnlyReason)
        wire.locked = locked ? 1 : 0
        wire.connected_apps = UInt32(clamping: connectedApps)
        wire.sample_count = UInt64(clamping: sampleCount)
        wire.version = arena.string(version)
        wire.socket_activated = service.socketActivated ? 1 : 0
        wire.idle_exit_seconds = UInt32(clamping: service.idleExitSeconds)
        wire.process_id = UInt32(clamping: service.processID)
        wire.started_time = service.started?.timeIntervalSince1970 ?? 0
        wire.store_bytes = UInt64(clamping: storeBytes)
        wire.last_export_time = lastExport?.timeIntervalSince1970 ?? 0
        wire.landlock_abi = UInt32(clamping: confinement.landlockABI)
        wire.landlock_missing_reason = arena.string(confinement.landlockMissingReason)
        wire.seccomp_filtered = confinement.seccompFiltered ? 1 : 0
        wire.peer_inspector = Openhealth__V1__PeerInspectorState(rawValue: UInt32(confinement.peerInspector.rawValue))
        wire.answers_read_again = UInt64(clamping: answersReadAgain)
        wire.long_running_slot_visits = UInt64(clamping: longRunningSlotVisits)
        wire.watch_computations = UInt64(clamping: watchComputations)
        let journals: [UnsafeMutablePointer<Openhealth__V1__DamagedPendingJournal>] = damagedJournals.prefix(DamagedPendingJournal.maxListed).map { journal in
            arena.message { message in
                message.path = arena.string(journal.path)
                message.bytes = UInt64(clamping: journal.bytes)
                message.kept_time = journal.kept?.timeIntervalSince1970 ?? 0
                message.lost = arena.string(journal.lost)
            }
        }
        wire.n_damaged_journals = journals.count
        wire.damaged_journals = arena.messages(journals)
        return ProtobufCodec.encode(wire)
    }
}
