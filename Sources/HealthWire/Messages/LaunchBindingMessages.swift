import COpenHealthProto
import Foundation

/// LaunchBindResponse: which app the passed connection is bound to, the unprivileged uid that
/// app runs as when root launches it (`AppSandboxIDRange`; 0 = none was given, which
/// health-sandbox refuses as root), whether it gets a network (manifest asks and user allows),
/// healthd's store and socket folders, which health-sandbox never shows the app
/// (`ProtectedFolders`; empty from a healthd that predates them), and the executables other
/// identities run — every installed app's and the manager tools healthd trusts — which no folder
/// the app may write may be or hold (empty from a healthd that predates them).
public struct LaunchBinding: WireMessage, Equatable {
    /// A file some identity runs: an installed app's executable (`appID` its id) or a manager
    /// tool healthd trusts, or healthd itself (`appID` empty).
    public struct Executable: Sendable, Equatable {
        public var path: String
        public var appID: String

        public init(path: String, appID: String = "") {
            self.path = path
            self.appID = appID
        }
    }

    public var appID: String
    public var sandboxUID: UInt32
    public var network: Bool
    public var storeDirectory: String
    public var socketDirectory: String
    public var executables: [Executable]

    public init(appID: String, sandboxUID: UInt32, network: Bool = false, storeDirectory: String = "", socketDirectory: String = "",
                executables: [Executable] = []) {
        self.appID = appID
        self.sandboxUID = sandboxUID
        self.network = network
        self.storeDirectory = storeDirectory
        self.socketDirectory = socketDirectory
        self.executables = executables
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__LaunchBindResponse.self, from: bytes) { wire in
            LaunchBinding(appID: WireRead.string(wire.app_id), sandboxUID: wire.sandbox_uid, network: wire.network != 0,
                          storeDirectory: WireRead.string(wire.store_directory), socketDirectory: WireRead.string(wire.socket_directory),
                          executables: WireRead.messages(wire.executables, count: wire.n_executables).map { executable in
                              Executable(path: WireRead.string(executable.path), appID: WireRead.string(executable.app_id))
                          })
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__LaunchBindResponse.initialized()
        wire.app_id = arena.string(appID)
        wire.sandbox_uid = sandboxUID
        wire.network = network ? 1 : 0
        wire.store_directory = arena.string(storeDirectory)
        wire.socket_directory = arena.string(socketDirectory)
        let built = executables.map { executable in
            arena.message { (wire: inout Openhealth__V1__ProtectedExecutable) in
                wire.path = arena.string(executable.path)
                wire.app_id = arena.string(executable.appID)
            }
        }
        wire.n_executables = built.count
        wire.executables = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// SetNetworkAccessRequest: the user's switch for one app's network access.
public struct NetworkAccessSetting: WireMessage, Equatable {
    public var appID: String
    public var allowed: Bool

    public init(appID: String, allowed: Bool) {
        self.appID = appID
        self.allowed = allowed
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SetNetworkAccessRequest.self, from: bytes) { wire in
            NetworkAccessSetting(appID: WireRead.string(wire.app_id), allowed: wire.allowed != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SetNetworkAccessRequest.initialized()
        wire.app_id = arena.string(appID)
        wire.allowed = allowed ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
