/// Passcode protection of a store's data key. With a passcode set, store.keys holds
/// the data key wrapped only under the scrypt-derived key, so the store cannot be
/// opened without the passcode (the "locked" state); machine.key stays on disk but
/// no longer unwraps anything until the passcode is removed.
///
/// Each call takes the store lock: the store must not be open.
public enum StorePasscode {
    public static func set(directory: String, passcode: String) throws(StoreOpenError) {
        try rewrap(directory: directory, unlockWith: nil, wrapWith: passcode, require: .machine)
    }

    public static func change(directory: String, from oldPasscode: String, to newPasscode: String) throws(StoreOpenError) {
        try rewrap(directory: directory, unlockWith: oldPasscode, wrapWith: newPasscode, require: .passcode)
    }

    public static func remove(directory: String, passcode: String) throws(StoreOpenError) {
        try rewrap(directory: directory, unlockWith: passcode, wrapWith: nil, require: .passcode)
    }

    /// Whether a passcode protects the store (reads store.keys only).
    public static func isSet(directory: String) throws(StoreOpenError) -> Bool {
        let layout = try StoreLayout(directory: directory, create: false)
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        if case .passcode = envelope.current.protection { return true }
        return false
    }

    private enum RequiredProtection { case machine, passcode }

    private static func rewrap(
        directory: String, unlockWith oldPasscode: String?, wrapWith newPasscode: String?,
        require required: RequiredProtection
    ) throws(StoreOpenError) {
        if let newPasscode, newPasscode.isEmpty { throw .passcodeEmpty }
        let layout = try StoreLayout(directory: directory, create: false)
        let lock = try StoreLock(layout)
        defer { withExtendedLifetime(lock) {} }
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        switch (envelope.current.protection, required) {
        case (.machine, .passcode): throw .passcodeNotSet(path: layout.directory)
        case (.passcode, .machine): throw .passcodeAlreadySet(path: layout.directory)
        default: break
        }
        // Settles an interrupted rotation first, so the key rewrapped is the one
        // that decrypts the database.
        _ = try DataKeyResolver(layout: layout).resolve(passcode: oldPasscode, createIfNew: false)
        guard let settled = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        let custody = KeyCustody(layout: layout)
        let dataKey = try custody.unwrap(settled.current, passcode: oldPasscode)
        try KeyEnvelope(current: custody.wrap(dataKey, passcode: newPasscode)).save(layout)
    }
}
