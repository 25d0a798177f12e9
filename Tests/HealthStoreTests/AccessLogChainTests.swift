import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The access log's hash chain on a real encrypted store: every kind of tampering that does
/// not recompute the chain is reported at the first affected entry.
@Suite(.timeLimit(.minutes(10))) struct AccessLogChainTests {
    /// An encrypted store holding five entries, and its open database.
    struct LoggedStore {
        let directory = TemporaryDirectory()
        let encrypted: EncryptedDatabase
        let database: HealthDatabase

        init() throws {
            encrypted = try EncryptedDatabase.open(directory: directory.path)
            database = try HealthDatabase(writer: encrypted.writer)
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            for index in 0..<5 {
                try database.accessLog.append(
                    actor: "org.example.app", appID: "org.example.app", action: index % 2 == 0 ? .write : .read,
                    types: ["HKQuantityTypeIdentifierStepCount"], count: index + 1, detail: "call \(index)",
                    at: start.addingTimeInterval(Double(index)))
            }
        }

        func tamper(_ sql: String) throws {
            try encrypted.writer.write { try $0.execute(sql: sql) }
        }
    }

    @Test func anUntouchedLogIsIntactAndListsItsEntriesInOrder() throws {
        let store = try LoggedStore()
        #expect(try store.database.accessLog.verify() == .intact(entries: 5))
        let entries = try store.database.accessLog.entries()
        #expect(entries.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(entries.map(\.count) == [1, 2, 3, 4, 5])
        #expect(entries[1].action == AccessAction.read.rawValue)
        #expect(entries[0].types == ["HKQuantityTypeIdentifierStepCount"])
    }

    @Test func anEmptyLogIsIntact() throws {
        let directory = TemporaryDirectory()
        let encrypted = try EncryptedDatabase.open(directory: directory.path)
        #expect(try HealthDatabase(writer: encrypted.writer).accessLog.verify() == .intact(entries: 0))
    }

    @Test func theLimitKeepsTheNewestEntriesOldestFirst() throws {
        let store = try LoggedStore()
        try store.database.accessLog.append(actor: AccessLogEntry.managerActor, appID: "org.other", action: .grantChange,
                                            types: [], count: 0)
        #expect(try store.database.accessLog.entries(limit: 2).map(\.sequence) == [5, 6])
        #expect(try store.database.accessLog.entries(appID: "org.other").map(\.sequence) == [6])
        #expect(try store.database.accessLog.entries(since: 4).map(\.sequence) == [5, 6])
    }

    @Test func anEditedCountIsReportedAtThatEntry() throws {
        let store = try LoggedStore()
        try store.tamper("UPDATE access_log SET count = 99 WHERE sequence = 3")
        #expect(try store.database.accessLog.verify() == .damaged(AccessLogDamage(sequence: 3, kind: .editedEntry)))
    }

    @Test func aDeletedMiddleEntryIsReportedAsMissing() throws {
        let store = try LoggedStore()
        try store.tamper("DELETE FROM access_log WHERE sequence = 2")
        #expect(try store.database.accessLog.verify() == .damaged(AccessLogDamage(sequence: 2, kind: .missingEntry)))
    }

    @Test func deletedNewestEntriesAreReportedThroughTheHead() throws {
        let store = try LoggedStore()
        try store.tamper("DELETE FROM access_log WHERE sequence >= 4")
        #expect(try store.database.accessLog.verify() == .damaged(AccessLogDamage(sequence: 4, kind: .missingEntry)))
    }

    @Test func aRenumberedEntryBreaksTheChain() throws {
        // Deleting entry 2 and renumbering 3 as 2 closes the gap, but 3's content and links no longer fit.
        let store = try LoggedStore()
        try store.tamper("DELETE FROM access_log WHERE sequence = 2; UPDATE access_log SET sequence = 2 WHERE sequence = 3")
        #expect(try store.database.accessLog.verify() == .damaged(AccessLogDamage(sequence: 2, kind: .editedEntry)))
    }

    @Test func appendingContinuesTheChainAcrossAReopen() throws {
        let store = try LoggedStore()
        try store.encrypted.close()
        let reopened = try EncryptedDatabase.open(directory: store.directory.path)
        let database = try HealthDatabase(writer: reopened.writer)
        #expect(try database.accessLog.append(actor: "org.example.app", appID: "org.example.app", action: .read,
                                              types: [], count: 0) == 6)
        #expect(try database.accessLog.verify() == .intact(entries: 6))
    }
}
