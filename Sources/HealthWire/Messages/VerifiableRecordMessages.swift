public import Foundation
import COpenHealthProto
public import HealthModel

/// verifiable_records.proto `VerifiableRecordQuery`: HKVerifiableClinicalRecordQuery's request.
extension VerifiableRecordQuerySpec: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__VerifiableRecordQuery.self, from: bytes) { wire in
            guard wire.n_record_types <= Self.maxRecordTypes, wire.n_source_types <= Self.maxSourceTypes else {
                throw WireDecodeError.invalidField("too many types in a verifiable clinical record query")
            }
            var interval: ClosedRange<Date>?
            if wire.has_relevant_interval != 0 {
                guard wire.relevant_start_us <= wire.relevant_end_us else {
                    throw WireDecodeError.invalidField("a relevant-date interval ends before it starts")
                }
                interval = Date(microsecondsSince1970: wire.relevant_start_us)...Date(microsecondsSince1970: wire.relevant_end_us)
            }
            return VerifiableRecordQuerySpec(recordTypes: WireRead.strings(wire.record_types, count: wire.n_record_types),
                                             sourceTypes: WireRead.strings(wire.source_types, count: wire.n_source_types),
                                             relevantInterval: interval)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__VerifiableRecordQuery.initialized()
        wire.n_record_types = recordTypes.count
        wire.record_types = arena.strings(recordTypes)
        wire.n_source_types = sourceTypes.count
        wire.source_types = arena.strings(sourceTypes)
        if let relevantInterval {
            wire.has_relevant_interval = 1
            wire.relevant_start_us = relevantInterval.lowerBound.microsecondsSince1970
            wire.relevant_end_us = relevantInterval.upperBound.microsecondsSince1970
        }
        return ProtobufCodec.encode(wire)
    }
}

/// verifiable_records.proto `VerifiableRecordList`: the records an app received, or the
/// manager's listing or import.
public struct VerifiableRecordList: WireMessage, Equatable {
    public var records: [VerifiableRecord]

    /// The most records one list holds; a card's JWS is bounded (`SmartHealthCardLimits`), so a
    /// full list stays well within a frame.
    public static let maxRecords = 256

    public init(_ records: [VerifiableRecord]) { self.records = records }

    public init(wire bytes: [UInt8]) throws {
        records = try ProtobufCodec.withDecoded(Openhealth__V1__VerifiableRecordList.self, from: bytes) { wire in
            guard wire.n_records <= Self.maxRecords else { throw WireDecodeError.invalidField("more than \(Self.maxRecords) records") }
            return try WireRead.messages(wire.records, count: wire.n_records).map { record in
                guard let uuid = UUID(bytes: WireRead.bytes(record.uuid)) else {
                    throw WireDecodeError.invalidField("a verifiable record's UUID is not 16 bytes")
                }
                let verification = WireRead.string(record.verification)
                return VerifiableRecord(
                    uuid: uuid, sourceType: WireRead.string(record.source_type),
                    recordTypes: WireRead.strings(record.record_types, count: record.n_record_types),
                    issuerIdentifier: WireRead.string(record.issuer_identifier),
                    subjectFullName: WireRead.string(record.subject_full_name),
                    subjectBirthDate: WireRead.string(record.subject_birth_date),
                    issuedDate: Date(microsecondsSince1970: record.issued_us),
                    relevantDate: Date(microsecondsSince1970: record.relevant_us),
                    expirationDate: record.has_expiration != 0 ? Date(microsecondsSince1970: record.expiration_us) : nil,
                    itemNames: WireRead.strings(record.item_names, count: record.n_item_names),
                    dataRepresentation: WireRead.bytes(record.data_representation),
                    verification: verification.isEmpty ? nil : VerifiableRecord.Verification(rawValue: verification),
                    importedDate: record.imported_us != 0 ? Date(microsecondsSince1970: record.imported_us) : nil)
            }
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__VerifiableRecordList.initialized()
        let built = records.map { record in
            arena.message { (message: inout Openhealth__V1__VerifiableRecord) in
                message.uuid = arena.bytes(of: record.uuid)
                message.source_type = arena.string(record.sourceType)
                message.n_record_types = record.recordTypes.count
                message.record_types = arena.strings(record.recordTypes)
                message.issuer_identifier = arena.string(record.issuerIdentifier)
                message.subject_full_name = arena.string(record.subjectFullName)
                message.subject_birth_date = arena.string(record.subjectBirthDate)
                message.issued_us = record.issuedDate.microsecondsSince1970
                message.relevant_us = record.relevantDate.microsecondsSince1970
                if let expiration = record.expirationDate {
                    message.has_expiration = 1
                    message.expiration_us = expiration.microsecondsSince1970
                }
                message.n_item_names = record.itemNames.count
                message.item_names = arena.strings(record.itemNames)
                message.data_representation = arena.bytes(record.dataRepresentation)
                message.verification = arena.string(record.verification?.rawValue ?? "")
                message.imported_us = record.importedDate?.microsecondsSince1970 ?? 0
            }
        }
        wire.n_records = built.count
        wire.records = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// verifiable_records.proto `VerifiableRecordImport`: a card file's bytes and, optionally, the
/// issuer's JWKS, both parsed by healthd (`SmartHealthCardReader`).
public struct VerifiableRecordImport: WireMessage, Equatable {
    public var file: [UInt8]
    public var issuerKeys: [UInt8]

    public init(file: [UInt8], issuerKeys: [UInt8] = []) {
        self.file = file
        self.issuerKeys = issuerKeys
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__VerifiableRecordImport.self, from: bytes) { wire in
            VerifiableRecordImport(file: WireRead.bytes(wire.file), issuerKeys: WireRead.bytes(wire.issuer_keys))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__VerifiableRecordImport.initialized()
        wire.file = arena.bytes(file)
        wire.issuer_keys = arena.bytes(issuerKeys)
        return ProtobufCodec.encode(wire)
    }
}

/// verifiable_records.proto `VerifiableRecordDeletion`: the records the user deletes.
public struct VerifiableRecordDeletion: WireMessage, Equatable {
    public var uuids: [UUID]

    public init(_ uuids: [UUID]) { self.uuids = uuids }

    public init(wire bytes: [UInt8]) throws {
        uuids = try ProtobufCodec.withDecoded(Openhealth__V1__VerifiableRecordDeletion.self, from: bytes) { wire in
            guard wire.n_uuids <= VerifiableRecordList.maxRecords else { throw WireDecodeError.invalidField("too many records") }
            return try RecordUUIDs.decode(wire.uuids, count: wire.n_uuids)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__VerifiableRecordDeletion.initialized()
        wire.n_uuids = uuids.count
        wire.uuids = arena.array(uuids.map { arena.bytes(of: $0) })
        return ProtobufCodec.encode(wire)
    }
}

/// verifiable_records.proto `VerifiableRecordSelection`: the records a manager listing asks for,
/// every record when `uuids` is empty (`healthctl object-requests` names only its requests'
/// candidates, so it never reads every stored card).
public struct VerifiableRecordSelection: WireMessage, Equatable {
    public var uuids: [UUID]

    /// The store's bound on records (`VerifiableRecordRepository.maxStored`): a selection never
    /// needs to name more.
    public static let maxUUIDs = 1_000

    public init(_ uuids: [UUID] = []) { self.uuids = uuids }

    public init(wire bytes: [UInt8]) throws {
        uuids = try ProtobufCodec.withDecoded(Openhealth__V1__VerifiableRecordSelection.self, from: bytes) { wire in
            guard wire.n_uuids <= Self.maxUUIDs else { throw WireDecodeError.invalidField("more than \(Self.maxUUIDs) records named") }
            return try RecordUUIDs.decode(wire.uuids, count: wire.n_uuids)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__VerifiableRecordSelection.initialized()
        wire.n_uuids = uuids.count
        wire.uuids = arena.array(uuids.map { arena.bytes(of: $0) })
        return ProtobufCodec.encode(wire)
    }
}

/// The record UUIDs a deletion or a selection names, each 16 bytes (its caller has bounded
/// `count` by its own limit).
private enum RecordUUIDs {
    static func decode(_ list: UnsafeMutablePointer<ProtobufCBinaryData>?, count: Int) throws -> [UUID] {
        guard count > 0 else { return [] }
        guard let list else { throw WireDecodeError.invalidField("record UUIDs are missing") }
        return try (0..<count).map { index in
            guard let uuid = UUID(bytes: WireRead.bytes(list[index])) else {
                throw WireDecodeError.invalidField("a record UUID is not 16 bytes")
            }
            return uuid
        }
    }
}
