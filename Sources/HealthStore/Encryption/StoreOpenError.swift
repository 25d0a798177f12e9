/// Why the encrypted store could not be opened or its keys changed. Every message
/// names the file involved and what the user can do; none carries health data or
/// key bytes.
public enum StoreOpenError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The store directory cannot be created, read or written.
    case directoryUnusable(path: String, reason: String)
    /// Another process (or another open in this one) holds the store.
    case storeInUse(path: String)
    /// The database exists but its wrapped data key (store.keys) is gone.
    case keyFileMissing(path: String)
    /// The data key is wrapped by the machine key, but machine.key is gone.
    case machineKeyMissing(path: String)
    case keyFileUnreadable(path: String, reason: String)
    /// A key file readable by others than the broker's user.
    case keyFilePermissions(path: String, mode: UInt32)
    case keyFileMalformed(path: String, reason: String)
    /// store.keys names scrypt parameters past `PasscodeKDF`'s bounds (a writer of the store
    /// folder could make every unlock allocate or spin): refused before scrypt runs.
    case keyDerivationOutOfBounds(path: String, parameter: String, value: UInt64, bound: String)
    /// machine.key does not unwrap the data key in store.keys.
    case machineKeyDoesNotUnwrap(path: String)
    /// The data key is wrapped by a passcode and none was given.
    case passcodeRequired(path: String)
    case wrongPasscode(path: String)
    /// A passcode operation that needs a passcode wrap found none.
    case passcodeNotSet(path: String)
    /// Setting a passcode on a store that already has one (use change).
    case passcodeAlreadySet(path: String)
    case passcodeEmpty
    /// The unwrapped data key does not decrypt the database.
    case wrongKey(path: String)
    /// A page failed authentication: the file was modified or damaged.
    case corrupt(path: String, detail: String)
    /// SQLite refused the store for another reason (result code and SQLite's message).
    case database(path: String, code: Int32, message: String)
    case cryptoFailure(operation: String)

    public var description: String {
        switch self {
        case let .directoryUnusable(path, reason):
            "store directory \(path) cannot be used (\(reason)): fix its permissions or pass --store for another store"
        case let .storeInUse(path):
            "store at \(path) is open in another process: stop healthd (or the other healthctl) and retry"
        case let .keyFileMissing(path):
            "store key file \(path) is missing but the database exists: restore it from backup; without it the data cannot be read"
        case let .machineKeyMissing(path):
            "machine key \(path) is missing: restore machine.key from backup; without it the data cannot be read"
        case let .keyFileUnreadable(path, reason):
            "key file \(path) cannot be read (\(reason)): run healthd as the user that owns the store"
        case let .keyFilePermissions(path, mode):
            "key file \(path) has mode \(String(mode, radix: 8)) or another owner; it must be owned by the broker's user with mode 600: run chmod 600 \(path)"
        case let .keyFileMalformed(path, reason):
            "key file \(path) is not a valid key file (\(reason)): restore it from backup"
        case let .keyDerivationOutOfBounds(path, parameter, value, bound):
            "key file \(path) asks scrypt for \(parameter) = \(value), outside the bound (\(bound)): it was altered or made by another program; restore store.keys from backup"
        case let .machineKeyDoesNotUnwrap(path):
            "machine key \(path) does not unwrap this store's data key: it was replaced; restore machine.key from backup or pass --store for another store"
        case let .passcodeRequired(path):
            "store at \(path) is locked with a passcode: unlock it with the passcode"
        case let .wrongPasscode(path):
            "the passcode does not unlock the store at \(path)"
        case let .passcodeNotSet(path):
            "store at \(path) has no passcode: use passcode set"
        case let .passcodeAlreadySet(path):
            "store at \(path) already has a passcode: use passcode change"
        case .passcodeEmpty:
            "the passcode is empty: choose a non-empty passcode"
        case let .wrongKey(path):
            "the data key does not decrypt the store at \(path): it was created with a different key (restore store.keys and machine.key from backup, or pass --store for another store) or its first page is damaged"
        case let .corrupt(path, detail):
            "store at \(path) is damaged: \(detail); restore it from backup"
        case let .database(path, code, message):
            "store at \(path) could not be opened: SQLite error \(code) (\(message))"
        case let .cryptoFailure(operation):
            "OpenSSL failed while \(operation)"
        }
    }
}
