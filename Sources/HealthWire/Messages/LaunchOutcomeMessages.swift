import COpenHealthProto

/// What `health-sandbox agent` did with a launch request (ReportLaunchOutcome). Every request
/// gets exactly one of `launched`, `alreadyRunning` or `failed`; an app the agent launched is
/// reported once more with `exited` when it exits.
public struct LaunchOutcome: WireMessage, Equatable {
    public enum Kind: UInt32, Sendable {
        /// The app was started (its process exists; it may still crash).
        case launched = 1
        /// An instance the agent launched earlier still runs; nothing was started.
        case alreadyRunning = 2
        /// Nothing could be started (`detail` says why).
        case failed = 3
        /// An app the agent launched exited (`exitStatus`: its status, or minus the signal).
        case exited = 4
    }

    /// `detail` longer than this is refused: it only goes to healthd's log.
    public static let maxDetailBytes = 512

    public var requestID: UInt64
    public var kind: Kind
    public var appID: String
    public var pid: Int32
    public var exitStatus: Int32
    public var detail: String

    public init(requestID: UInt64, kind: Kind, appID: String, pid: Int32 = 0, exitStatus: Int32 = 0, detail: String = "") {
        self.requestID = requestID
        self.kind = kind
        self.appID = appID
        self.pid = pid
        self.exitStatus = exitStatus
        self.detail = detail
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__LaunchOutcome.self, from: bytes) { wire throws(WireDecodeError) in
            guard let kind = Kind(rawValue: wire.kind) else {
                throw .invalidField("launch outcome kind must be 1 launched, 2 already running, 3 failed or 4 exited, not \(wire.kind)")
            }
            let detail = WireRead.string(wire.detail)
            guard detail.utf8.count <= Self.maxDetailBytes else {
                throw .invalidField("launch outcome detail longer than \(Self.maxDetailBytes) bytes")
            }
            return LaunchOutcome(requestID: wire.request_id, kind: kind, appID: WireRead.string(wire.app_id), pid: wire.pid,
                                 exitStatus: wire.exit_status, detail: detail)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__LaunchOutcome.initialized()
        wire.request_id = requestID
        wire.kind = kind.rawValue
        wire.app_id = arena.string(appID)
        wire.pid = pid
        wire.exit_status = exitStatus
        wire.detail = arena.string(detail)
        return ProtobufCodec.encode(wire)
    }
}
