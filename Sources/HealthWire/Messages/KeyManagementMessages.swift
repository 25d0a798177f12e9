import COpenHealthProto
import Glibc
public import HealthModel

// The payloads of the manager's key-management methods (GetKeyStatus, RotateKey, SetPasscode,
// ChangePasscode, RemovePasscode in proto/openhealth/v1/health_manager.proto).

/// KeyStatusResponse: whether a passcode protects the store.
public struct KeyStatus: WireMessage, Equatable {
    public var passcodeSet: Bool

    public init(passcodeSet: Bool) { self.passcodeSet = passcodeSet }

    public init(wire bytes: [UInt8]) throws {
        passcodeSet = try ProtobufCodec.withDecoded(Openhealth__V1__KeyStatusResponse.self, from: bytes) {
            $0.passcode_set != 0
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__KeyStatusResponse.initialized()
        wire.passcode_set = passcodeSet ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}

/// The passcodes of RotateKeyRequest, SetPasscodeRequest, ChangePasscodeRequest and
/// RemovePasscodeRequest, which share their field numbers (`passcode` = 1 is the current one,
/// `newPasscode` = 2 the one to protect the store with), so one type carries all four; a field
/// a request does not have stays empty.
///
/// Bytes rather than strings so that every copy can be erased: call `erase()` when done, and
/// `PasscodeCredentials.erase(_:)` on the bytes `wireBytes()` returned once they are sent.
/// Decoding zeroes protobuf-c's copy; the encoder's copy is zeroed when it is freed.
public struct PasscodeCredentials: WireMessage {
    public var passcode: [UInt8]
    public var newPasscode: [UInt8]

    public init(passcode: [UInt8] = [], newPasscode: [UInt8] = []) {
        self.passcode = passcode
        self.newPasscode = newPasscode
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ChangePasscodeRequest.self, from: bytes) { wire in
            PasscodeCredentials(passcode: WireRead.takingSecret(wire.passcode),
                                newPasscode: WireRead.takingSecret(wire.new_passcode))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ChangePasscodeRequest.initialized()
        wire.passcode = arena.secretBytes(passcode)
        wire.new_passcode = arena.secretBytes(newPasscode)
        return ProtobufCodec.encode(wire)
    }

    /// Zeroes both passcodes in place.
    public mutating func erase() {
        Self.erase(&passcode)
        Self.erase(&newPasscode)
    }

    /// Zeroes `bytes` in place (explicit_bzero: the compiler may not drop it).
    public static func erase(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { explicit_bzero(base, buffer.count) }
        }
    }
}

/// UnlockResponse: what merging the pending journal did.
public struct UnlockReport: WireMessage, Equatable {
    public var merged: Int
    /// One line per journal holding an entry that failed authentication (kept, not merged).
    public var damaged: [String]
    /// Merged entries the store refused (they changed nothing, though the app was told they
    /// saved), per app and reason, at most `maxRefusalsListed` pairs; `refusedMore` counts the rest.
    public var refused: [Refusal]
    public var refusedMore: Int

    public typealias Refusal = MergeRefusal

    public static let maxRefusalsListed = 64

    public init(merged: Int, damaged: [String] = [], refused: [Refusal] = [], refusedMore: Int = 0) {
        self.merged = merged
        self.damaged = damaged
        self.refused = refused
        self.refusedMore = refusedMore
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__UnlockResponse.self, from: bytes) { wire in
            guard wire.n_damaged <= 1024 else { throw WireDecodeError.invalidField("more than 1024 damaged journals") }
            guard wire.n_refused <= Self.maxRefusalsListed else {
                throw WireDecodeError.invalidField("more than \(Self.maxRefusalsListed) kinds of refused entries")
            }
            return UnlockReport(merged: Int(wire.merged),
                                damaged: WireRead.strings(wire.damaged, count: wire.n_damaged),
                                refused: WireRead.messages(wire.refused, count: wire.n_refused).map { refusal in
                                    Refusal(appID: WireRead.string(refusal.app_id), reason: WireRead.string(refusal.reason),
                                            count: Int(refusal.count))
                                },
                                refusedMore: Int(wire.refused_more))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__UnlockResponse.initialized()
        wire.merged = UInt32(clamping: merged)
        wire.n_damaged = damaged.count
        wire.damaged = arena.strings(damaged)
        let refusals: [UnsafeMutablePointer<Openhealth__V1__RefusedMergedEntries>] = refused.prefix(Self.maxRefusalsListed).map { refusal in
            arena.message { message in
                message.app_id = arena.string(refusal.appID)
                message.reason = arena.string(refusal.reason)
                message.count = UInt32(clamping: refusal.count)
            }
        }
        wire.n_refused = refusals.count
        wire.refused = arena.messages(refusals)
        wire.refused_more = UInt32(clamping: refusedMore)
        return ProtobufCodec.encode(wire)
    }
}
