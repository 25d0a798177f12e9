import Foundation
import GRDB
import HealthModel

/// Merges the pending journals into the open store, oldest lock first and each in entry order,
/// exactly once even if healthd is killed at any point:
///
/// - each entry's effects and the advance of its journal's `applied_through` commit in one
///   transaction, so an entry is either merged and recorded, or neither; a restarted merge skips
///   what is recorded;
/// - once every entry is merged the file is removed (durably), then its key row: a kill between
///   the two leaves a row without a file, which the next merge just removes.
///
/// Runs before the store admits any call (StoreHandle, at unlock and at start-up), so entries
/// resolve sync-identifier upserts against the store as it was when they were saved plus the
/// entries before them — as if they had been saved then.
public enum PendingJournalMerge {
    public struct Report: Sendable, Equatable {
        /// Entries merged now (not those a previous, interrupted merge already applied).
        public var merged = 0
        /// Entries that failed authentication or decoding; their journal is kept (`PendingJournalError.damaged`).
        public var damaged: [PendingJournalError] = []

        public init() {}
    }

    /// `decode` turns an entry's plaintext into its effect; a throw counts the entry as damaged.
    public static func merge(_ database: HealthDatabase, directory: String,
                             decode: ([UInt8]) throws -> PendingEffect) throws -> Report {
        var report = Report()
        let writer = database.writer
        for generation in try writer.read({ try PendingJournalKeys.generations($0) }) {
            let path = PendingJournalFile.path(directory: directory, generation: generation)
            guard let key = try writer.read({ try PendingJournalKeys.load($0, generation: generation) }) else { continue }
            let entries = try PendingJournalFile.entries(path: path, generation: generation) ?? []
            var firstDamaged: UInt64?
            for (sequence, sealed) in entries where sequence > key.appliedThrough {
                let aad = PendingJournalFile.associatedData(generation: generation, sequence: sequence)
                guard let plaintext = try PendingJournalSeal.open(sealed, privateKey: key.privateKey,
                                                                  publicKey: key.publicKey, aad: aad),
                      let effect = try? decode(plaintext) else {
                    firstDamaged = firstDamaged ?? sequence
                    continue  // each entry is sealed on its own: the ones after it still count
                }
                try writer.write { db in
                    try apply(effect, db)
                    try PendingJournalKeys.recordApplied(db, generation: generation, through: sequence)
                }
                report.merged += 1
            }
            if let firstDamaged {
                let kept = path + ".damaged"
                do {
                    try StoreFileIO.rename(path, to: kept)
                } catch {
                    throw PendingJournalError.fileUnusable(path: path, reason: error.reason)
                }
                report.damaged.append(.damaged(path: path, sequence: firstDamaged, keptAs: kept))
            } else {
                do {
                    try StoreFileIO.remove(path)
                } catch {
                    throw PendingJournalError.fileUnusable(path: path, reason: error.reason)
                }
            }
            try writer.write { try PendingJournalKeys.remove($0, generation: generation) }
        }
        return report
    }

    /// Creates the key pair and the file of a new pending journal (at lock, with the store open).
    public static func begin(_ database: HealthDatabase, directory: String) throws -> PendingJournal {
        let (generation, publicKey) = try PendingJournalKeys.create(database.writer)
        return try PendingJournal(directory: directory, generation: generation, publicKey: publicKey)
    }

    private static func apply(_ effect: PendingEffect, _ db: Database) throws {
        switch effect {
        case let .save(records, source, uuids):
            _ = try SampleRepository.write(records, source: source, db, minting: UUIDSupply(preassigned: uuids))
        case let .delete(references, appID):
            // The app was answered while locked; a deletion that would have failed then (an
            // object not its own, or gone) deletes nothing now, in a savepoint of its own so that
            // the entry is still recorded as merged.
            do {
                try db.inSavepoint {
                    _ = try SampleRepository.deleteOwned(references, appID: appID, db)
                    return .commit
                }
            } catch is HKError {
                return
            }
        case let .grants(appID, decisions, date):
            try GrantRepository.apply(db, appID: appID, decisions, at: date)
        case let .accessLog(actor, appID, action, types, count, detail, date):
            try AccessLogRepository.append(db, actor: actor, appID: appID, action: action, types: types,
                                           count: count, detail: detail, at: date)
        }
    }
}
