import COpenHealthProto
import Foundation

/// LaunchBindResponse: which app the passed connection is bound to, and the unprivileged uid
/// that app runs as when root launches it (`AppSandboxIDRange`; 0 = none was given, which
/// health-sandbox refuses as root).
public struct LaunchBinding: WireMessage, Equatable {
    public var appID: String
    public var sandboxUID: UInt32

    public init(appID: String, sandboxUID: UInt32) {
        self.appID = appID
        self.sandboxUID = sandboxUID
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__LaunchBindResponse.self, from: bytes) { wire in
            LaunchBinding(appID: WireRead.string(wire.app_id), sandboxUID: wire.sandbox_uid)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__LaunchBindResponse.initialized()
        wire.app_id = arena.string(appID)
        wire.sandbox_uid = sandboxUID
        return ProtobufCodec.encode(wire)
    }
}
