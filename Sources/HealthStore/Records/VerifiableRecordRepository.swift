public import Foundation
import GRDB
public import HealthModel

/// The user's verifiable clinical records (`verifiable_records`, v67). Written and deleted only by
/// the manager; read for an app only as the candidates of its query's prompt, which the user
/// lists (`PerObjectCandidates`), and as the records the user then picked.
public struct VerifiableRecordRepository: Sendable {
    let writer: any DatabaseWriter

    /// The most records the store keeps: a prompt offers every match (within
    /// `PerObjectCandidates.maxCandidates`), and a listing fits a few frames.
    public static let maxStored = 1_000

    /// Stores each record not already stored (the same card, byte for byte, is kept once) and
    /// returns, per record given, the one stored. Fails with errorInvalidArgument past `maxStored`.
    public func insert(_ records: [VerifiableRecord]) throws -> [VerifiableRecord] {
        try writer.write { db in
            var stored: [VerifiableRecord] = []
            for record in records {
                if let existing = try Row.fetchOne(db, sql: "SELECT * FROM verifiable_records WHERE jws = ?",
                                                   arguments: [Data(record.dataRepresentation)]) {
                    stored.append(try Self.record(existing))
                    continue
                }
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM verifiable_records") ?? 0
                guard count < Self.maxStored else {
                    throw HKError(.errorInvalidArgument, "the store keeps at most \(Self.maxStored) verifiable records; delete some first")
                }
                try db.execute(sql: """
                    INSERT INTO verifiable_records (uuid, source_type, record_types, issuer, subject_name, subject_birth_date,
                        issued_us, relevant_us, expiration_us, item_names, jws, verification, imported_us)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [
                        record.uuid, record.sourceType, try Self.json(record.recordTypes), record.issuerIdentifier,
                        record.subjectFullName, record.subjectBirthDate, record.issuedDate.microsecondsSince1970,
                        record.relevantDate.microsecondsSince1970, record.expirationDate?.microsecondsSince1970,
                        try Self.json(record.itemNames), Data(record.dataRepresentation),
                        (record.verification ?? .unverified).rawValue, (record.importedDate ?? Date()).microsecondsSince1970,
                    ])
                stored.append(record)
            }
            return stored
        }
    }

    /// Every stored record, newest relevant date first.
    public func all() throws -> [VerifiableRecord] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM verifiable_records ORDER BY relevant_us DESC, uuid")
                .map(Self.record)
        }
    }

    /// The records without their card (`VerifiableRecord.summary`): every one when `uuids` is nil,
    /// newest relevant date first, else those among `uuids` in the order given (unknown ones left
    /// out, each once). The JWS
    /// column is not read: a listing of a thousand cards need not load up to 256 KiB for each.
    public func summaries(_ uuids: [UUID]? = nil) throws -> [VerifiableRecord] {
        try writer.read { db in
            let columns = "uuid, source_type, record_types, issuer, subject_name, subject_birth_date, issued_us, relevant_us, "
                + "expiration_us, item_names, NULL AS jws, verification, imported_us"
            guard let uuids else {
                return try Row.fetchAll(db, sql: "SELECT \(columns) FROM verifiable_records ORDER BY relevant_us DESC, uuid")
                    .map(Self.record)
            }
            var seen = Set<UUID>()
            return try uuids.filter { seen.insert($0).inserted }.compactMap { uuid in
                try Row.fetchOne(db, sql: "SELECT \(columns) FROM verifiable_records WHERE uuid = ?", arguments: [uuid])
                    .map(Self.record)
            }
        }
    }

    /// The records `spec` matches, newest relevant date first, at most `limit`, as summaries (a
    /// prompt's candidates need the UUID and date; the JWS is read only for the records shared).
    /// A record whose text holds a character the card reader now refuses (stored before it did)
    /// is never offered: an app could not be sent it.
    public func matching(_ spec: VerifiableRecordQuerySpec, limit: Int) throws -> [VerifiableRecord] {
        Array(try summaries().lazy.filter { spec.matches($0) && $0.unsafeTextField == nil }.prefix(limit))
    }

    /// The stored records among `uuids`, in the order given; unknown ones are left out.
    public func records(_ uuids: [UUID]) throws -> [VerifiableRecord] {
        try writer.read { db in
            try uuids.compactMap { uuid in
                try Row.fetchOne(db, sql: "SELECT * FROM verifiable_records WHERE uuid = ?", arguments: [uuid])
                    .map(Self.record)
            }
        }
    }

    /// Deletes the records named; returns how many there were.
    public func delete(_ uuids: [UUID]) throws -> Int {
        try writer.write { db in
            var removed = 0
            for uuid in uuids {
                try db.execute(sql: "DELETE FROM verifiable_records WHERE uuid = ?", arguments: [uuid])
                removed += db.changesCount
            }
            return removed
        }
    }

    private static func json(_ strings: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
    }

    private static func strings(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    private static func record(_ row: Row) throws -> VerifiableRecord {
        guard let uuid = row["uuid"] as UUID? else {
            throw HKError(.errorDatabaseInaccessible, "a stored verifiable record has no UUID")
        }
        let jws: Data? = row["jws"]  // NULL in summaries
        let expiration: Int64? = row["expiration_us"]
        let verification: String = row["verification"]
        return VerifiableRecord(
            uuid: uuid, sourceType: row["source_type"], recordTypes: try strings(row["record_types"]), issuerIdentifier: row["issuer"],
            subjectFullName: row["subject_name"], subjectBirthDate: row["subject_birth_date"],
            issuedDate: Date(microsecondsSince1970: row["issued_us"]), relevantDate: Date(microsecondsSince1970: row["relevant_us"]),
            expirationDate: expiration.map { Date(microsecondsSince1970: $0) }, itemNames: try strings(row["item_names"]),
            dataRepresentation: jws.map { [UInt8]($0) } ?? [], verification: VerifiableRecord.Verification(rawValue: verification) ?? .unverified,
            importedDate: Date(microsecondsSince1970: row["imported_us"]))
    }
}

extension HealthDatabase {
    public var verifiableRecords: VerifiableRecordRepository { VerifiableRecordRepository(writer: writer) }
}
