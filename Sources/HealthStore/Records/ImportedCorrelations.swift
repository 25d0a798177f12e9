import Foundation
import GRDB
import HealthModel

/// Imported correlations, which need rules of their own:
/// - HealthKit allows no sync identifier on a correlation, so its import identity lives in
///   `SampleRecord.importIdentityKey` and a correlation the source already holds is found by
///   type, dates and that identity (`holds`).
/// - Apple's export lists a correlation's samples twice: inside it, and again as top-level
///   records ("Any Records that appear as children of a correlation also appear as top-level
///   records", its DTD says). Stored as they come, every blood-pressure reading would count twice.
///   So a top-level record equal to a sample its source holds in a correlation is not stored
///   (`holdsAsMember`), and storing a correlation deletes the top-level copies of its samples
///   imported before it (`dropTopLevelCopies`) — through `ObjectDeleter`, so apps that saw them
///   learn they are gone. Equal means same source, type, dates and canonical value.
/// Only the import path applies these: an app's save of two equal samples stores both.
///
/// Each rule costs one statement per type and batch, not one per record (a year of blood
/// pressure is thousands of readings): the batch's dates go to SQLite as one JSON array, joined
/// to `objects` through its (type, source, start) index, and the answers are compared here.
/// Values are compared in Swift, exactly as stored (a Double through JSON text might not come
/// back bit for bit).
struct ImportedCorrelations {
    private var heldCorrelations = Set<CorrelationKey>()
    private var heldMembers = Set<MemberKey>()

    /// Looks up, for each record of `records` at a position `included` accepts, whether the
    /// source holds it already: a correlation by its identity, a quantity of a type correlations
    /// hold as a correlation's sample. Reflects the store as it is now (before the batch is written).
    init(_ records: [SampleRecord], sourceID: Int64, _ db: Database, included: (Int) -> Bool) throws {
        var correlations: [String: [SampleRecord]] = [:]
        var members: [String: [SampleRecord]] = [:]
        for (position, record) in records.enumerated() where included(position) {
            if case .correlation = record.value, record.importIdentity != nil {
                correlations[record.typeIdentifier, default: []].append(record)
            } else if Self.isMemberCandidate(record) {
                members[record.typeIdentifier, default: []].append(record)
            }
        }
        for (type, list) in correlations {
            for row in try Self.rows(ofType: type, at: list.map(SpanKey.init), sourceID: sourceID, columns: "o.metadata",
                                     membership: nil, db) {
                if case let .string(identity)? = try MetadataCoding.decode(row.row[1] as String?)[SampleRecord.importIdentityKey] {
                    heldCorrelations.insert(CorrelationKey(type: type, span: row.span, identity: identity))
                }
            }
        }
        for (type, list) in members {
            for row in try Self.rows(ofType: type, at: list.map(SpanKey.init), sourceID: sourceID, columns: "o.quantity",
                                     membership: true, db) {
                guard let quantity = row.row[1] as Double? else { continue }
                heldMembers.insert(MemberKey(type: type, span: row.span, quantity: quantity))
            }
        }
    }

    /// Whether the source holds a correlation of `record`'s type and dates with this identity.
    func holds(_ record: SampleRecord, identity: String) -> Bool {
        heldCorrelations.contains(CorrelationKey(type: record.typeIdentifier, span: SpanKey(record), identity: identity))
    }

    /// Whether `record` (a quantity of a type correlations hold) equals a sample the source holds
    /// inside a correlation.
    func holdsAsMember(_ record: SampleRecord) -> Bool {
        guard Self.isMemberCandidate(record), case let .quantity(value, _) = record.value else { return false }
        return heldMembers.contains(MemberKey(type: record.typeIdentifier, span: SpanKey(record), quantity: value))
    }

    /// After `records` are stored: deletes the source's top-level samples equal to a sample of one
    /// of the correlations among them, and returns how many.
    @discardableResult
    static func dropTopLevelCopies(ofMembersOf records: [SampleRecord], sourceID: Int64, _ db: Database) throws -> Int {
        var members: [String: [SampleRecord]] = [:]
        for record in records {
            guard case let .correlation(objects) = record.value else { continue }
            for member in objects {
                guard case .quantity = member.value else { continue }
                members[member.typeIdentifier, default: []].append(member)
            }
        }
        var rowIDs = Set<Int64>()
        for (type, list) in members.sorted(by: { $0.key < $1.key }) {
            let wanted = Set(list.compactMap { member -> MemberKey? in
                guard case let .quantity(value, _) = member.value else { return nil }
                return MemberKey(type: type, span: SpanKey(member), quantity: value)
            })
            for row in try rows(ofType: type, at: list.map(SpanKey.init), sourceID: sourceID, columns: "o.quantity, o.id",
                                membership: false, db) {
                guard let quantity = row.row[1] as Double?,
                      wanted.contains(MemberKey(type: type, span: row.span, quantity: quantity)) else { continue }
                rowIDs.insert(row.row[2] as Int64)
            }
        }
        return try SampleRepository.deleteRows(rowIDs.sorted(), db)
    }

    /// Every type a correlation may hold (blood pressure's two, food's dietary types).
    private static let memberTypes: Set<String> = Set(
        HKObjectType.allTypes.filter { $0 is HKCorrelationType }.flatMap { CorrelationRules.memberTypes(of: $0.identifier) }.map(\.identifier))

    private static func isMemberCandidate(_ record: SampleRecord) -> Bool {
        guard case .quantity = record.value else { return false }
        return memberTypes.contains(record.typeIdentifier)
    }

    /// The source's objects of `type` starting and ending at one of `spans` (each row: the span's
    /// place in the list sent, then `columns`), only correlations' samples (`membership` true),
    /// only others (false), or all (nil). One statement: SQLite walks the JSON list and searches
    /// the (type, source, start) index for each span.
    private static func rows(ofType type: String, at spans: [SpanKey], sourceID: Int64, columns: String,
                             membership: Bool?, _ db: Database) throws -> [SpanRow] {
        let unique = Array(Set(spans))
        guard !unique.isEmpty else { return [] }
        let membershipCondition = switch membership {
        case true?: "AND EXISTS (SELECT 1 FROM correlation_members m WHERE m.member_id = o.id)"
        case false?: "AND NOT EXISTS (SELECT 1 FROM correlation_members m WHERE m.member_id = o.id)"
        case nil: ""
        }
        let list = "[" + unique.map { "[\($0.start),\($0.end)]" }.joined(separator: ",") + "]"
        let statement = try db.cachedStatement(sql: """
            SELECT k.key, \(columns) FROM json_each(?) k
            JOIN objects o ON o.type_id = ? AND o.source_id = ?
              AND o.start_us = json_extract(k.value, '$[0]') AND o.end_us = json_extract(k.value, '$[1]')
            \(membershipCondition)
            """)
        // `k.key` is the span's place in the array sent (json_each numbers an array's elements).
        return try Row.fetchAll(statement, arguments: [list, try SampleSQL.typeID(db, type), sourceID]).compactMap { row in
            let place: Int = row[0]
            return unique.indices.contains(place) ? SpanRow(span: unique[place], row: row) : nil
        }
    }

    /// A sample's dates as stored (microseconds).
    private struct SpanKey: Hashable {
        var start: Int64
        var end: Int64

        init(_ record: SampleRecord) {
            start = record.startDate.microsecondsSince1970
            end = record.endDate.microsecondsSince1970
        }
    }

    private struct SpanRow {
        var span: SpanKey
        var row: Row
    }

    private struct CorrelationKey: Hashable {
        var type: String
        var span: SpanKey
        var identity: String
    }

    private struct MemberKey: Hashable {
        var type: String
        var span: SpanKey
        var quantity: Double
    }
}

extension SampleRecord {
    /// An imported correlation's identity (`importIdentityKey`), if it carries one.
    var importIdentity: String? {
        if case let .string(identity)? = metadata[Self.importIdentityKey] { return identity }
        return nil
    }
}
