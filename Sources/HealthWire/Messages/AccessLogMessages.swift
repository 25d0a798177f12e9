import COpenHealthProto
import Foundation
public import HealthModel

// The payloads of the manager's access-log methods (ListAccessLog, VerifyAccessLog in
// proto/openhealth/v1/health_manager.proto).

/// ListAccessLogRequest: the newest `limit` entries (0: the broker's cap), only those about
/// `appID` when it is set.
public struct AccessLogQuery: WireMessage, Equatable {
    public var appID: String?
    public var limit: Int

    public init(appID: String? = nil, limit: Int = 0) {
        self.appID = appID
        self.limit = limit
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ListAccessLogRequest.self, from: bytes) { wire in
            let appID = WireRead.string(wire.app_id)
            return AccessLogQuery(appID: appID.isEmpty ? nil : appID, limit: Int(wire.limit))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListAccessLogRequest.initialized()
        wire.app_id = arena.string(appID ?? "")
        wire.limit = UInt32(clamping: limit)
        return ProtobufCodec.encode(wire)
    }
}

/// ListAccessLogResponse: entries oldest first.
public struct AccessLogPage: WireMessage, Equatable {
    public var entries: [AccessLogEntry]
    public init(_ entries: [AccessLogEntry]) { self.entries = entries }

    public init(wire bytes: [UInt8]) throws {
        entries = try ProtobufCodec.withDecoded(Openhealth__V1__ListAccessLogResponse.self, from: bytes) { wire in
            WireRead.messages(wire.entries, count: wire.n_entries).map(Self.entry)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListAccessLogResponse.initialized()
        let built = entries.map { entry in
            arena.message { (wire: inout Openhealth__V1__AccessLogEntry) in
                wire.sequence = entry.sequence
                wire.time_us = entry.date.microsecondsSince1970
                wire.actor = arena.string(entry.actor)
                wire.app_id = arena.string(entry.appID ?? "")
                wire.action = arena.string(entry.action)
                wire.n_types = entry.types.count
                wire.types = arena.strings(entry.types)
                wire.count = Int64(entry.count)
                wire.detail = arena.string(entry.detail)
            }
        }
        wire.n_entries = built.count
        wire.entries = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }

    private static func entry(_ wire: Openhealth__V1__AccessLogEntry) -> AccessLogEntry {
        let appID = WireRead.string(wire.app_id)
        return AccessLogEntry(
            sequence: wire.sequence, date: Date(microsecondsSince1970: wire.time_us),
            actor: WireRead.string(wire.actor), appID: appID.isEmpty ? nil : appID,
            action: WireRead.string(wire.action), types: WireRead.strings(wire.types, count: wire.n_types),
            count: Int(clamping: wire.count), detail: WireRead.string(wire.detail))
    }
}

/// VerifyAccessLogResponse.
public struct AccessLogVerificationMessage: WireMessage, Equatable {
    public var verification: AccessLogVerification

    public init(_ verification: AccessLogVerification) { self.verification = verification }

    public init(wire bytes: [UInt8]) throws {
        verification = try ProtobufCodec.withDecoded(Openhealth__V1__VerifyAccessLogResponse.self, from: bytes) { wire in
            if wire.intact != 0 { return .intact(entries: Int(clamping: wire.entries)) }
            guard let kind = Self.kinds.first(where: { $0.code == wire.damage_kind })?.kind else {
                throw WireDecodeError.invalidField("VerifyAccessLogResponse.damage_kind \(wire.damage_kind)")
            }
            return .damaged(AccessLogDamage(sequence: wire.damaged_sequence, kind: kind))
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__VerifyAccessLogResponse.initialized()
        switch verification {
        case let .intact(entries):
            wire.intact = 1
            wire.entries = Int64(entries)
        case let .damaged(damage):
            wire.damaged_sequence = damage.sequence
            wire.damage_kind = Self.kinds.first { $0.kind == damage.kind }?.code ?? 0
        }
        return ProtobufCodec.encode(wire)
    }

    /// The proto's numbering of `AccessLogDamage.Kind`.
    private static let kinds: [(kind: AccessLogDamage.Kind, code: UInt32)] = [
        (.editedEntry, 1), (.brokenChain, 2), (.missingEntry, 3), (.headMismatch, 4),
    ]
}
