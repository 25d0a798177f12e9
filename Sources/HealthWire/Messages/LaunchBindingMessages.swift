import COpenHealthProto
import Foundation

/// LaunchBindResponse: which app the passed connection is bound to, the unprivileged uid that
/// app runs as when root launches it (`AppSandboxIDRange`; 0 = none was given, which
/// health-sandbox refuses as root), whether it gets a network (manifest asks and user allows), and
/// healthd's store and socket folders, which health-sandbox never shows the app
/// (`ProtectedFolders`; empty from a healthd that predates them).
public struct LaunchBinding: WireMessage, Equatable {
    public var appID: String
    public var sandboxUID: UInt32
    public var network: Bool
    public var storeDirectory: String
    public var socketDirectory: String

    public init(appID: String, sandboxUID: UInt32, network: Bool = false, storeDirectory: String = "", socketDirectory: String = "") {
        self.appID = appID
        self.sandboxUID = sandboxUID
        self.network = network
        self.storeDirectory = storeDirectory
        self.socketDirectory = socketDirectory
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__LaunchBindResponse.self, from: bytes) { wire in
            LaunchBinding(appID: WireRead.string(wire.app_id), sandboxUID: wire.sandbox_uid, network: wire.network != 0,
                          storeDirectory: WireRead.string(wire.store_directory), socketDirectory: WireRead.string(wire.socket_directory))
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
