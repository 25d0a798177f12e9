import GRDB

/// A store operation that failed because the file system could not take the write (disk full,
/// an I/O error, a read-only mount), not because of the request. The broker tells the app the
/// store cannot save right now (`appMessage`, no path: apps do not learn the store's location)
/// and logs `logDescription` (SQLite's code, the errno it stands for, the store directory).
public struct StoreIOFailure: Error, Sendable, Equatable {
    /// SQLite's extended result code, e.g. 13 (SQLITE_FULL) or 778 (SQLITE_IOERR_WRITE).
    public let sqliteCode: Int32
    public let directory: String
    /// Set when healthd started the store read-only (`EncryptedDatabase.readOnlyReason`): a
    /// refused write then says why instead of "read-only file system".
    public let readOnlyReason: String?

    /// nil when `error` is not a file-system failure.
    public init?(_ error: any Error, directory: String, readOnlyReason: String? = nil) {
        self.readOnlyReason = readOnlyReason
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN:
            sqliteCode = error.extendedResultCode.rawValue
            self.directory = directory
        default:
            return nil
        }
    }

    /// SQLite's unix VFS returns SQLITE_FULL exactly when write(2) fails with ENOSPC (or
    /// writes short), so the errno is known without asking the connection.
    public var cause: String {
        switch sqliteCode & 0xFF {
        case 13: return "no space left on device (ENOSPC)"
        case 8: return readOnlyReason ?? "the file system is read-only (EROFS or EACCES)"
        case 14: return "a store file cannot be opened"
        default:
            let operation = switch sqliteCode {
            case 778: "write"
            case 1034: "fsync"
            case 266: "read"
            case 1546: "truncate"
            case 3338: "shared-memory map"
            default: "file operation"
            }
            return "an I/O error during \(operation) (SQLite extended code \(sqliteCode))"
        }
    }

    /// What the app is told: HealthKit's errorDatabaseInaccessible with this message.
    public var appMessage: String { "the health store cannot save right now: \(cause)" }

    public var logDescription: String { "\(cause), SQLite code \(sqliteCode), store \(directory)" }
}
