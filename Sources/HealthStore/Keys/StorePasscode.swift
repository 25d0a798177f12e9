/// Passcode protection of a store's data key. With a passcode set, store.keys holds
/// the data key wrapped only under the scrypt-derived key, so the store cannot be
/// opened without the passcode (the "locked" state); machine.key stays on disk but
/// no longer unwraps anything until the passcode is removed.
///
/// Each call takes the store lock: the store must not be open.
public enum StorePasscode {
    public static func set(directory: String, passcode: Passcode) throws(StoreOpenError) {
        try rewrap(directory: directory, unlockWith: nil, wrapWith: passcode, require: .machine)
    }

    public static func change(directory: String, from oldPasscode: Passcode, to newPasscode: Passcode) throws(StoreOpenError) {
        try rewrap(directory: directory, unlockWith: oldPasscode, wrapWith: newPasscode, require: .passcode)
    }

    public static func remove(directory: String, passcode: Passcode) throws(StoreOpenError) {
        try rewrap(directory: directory, unlockWith: passcode, wrapWith: nil, require: .passcode)
    }

    /// Whether a passcode protects the store (reads store.keys only).
    public static func isSet(directory: String) throws(StoreOpenError) -> Bool {
        let layout = try StoreLayout(directory: directory, create: false)
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        if case .passcode = envelope.current.protection { return true }
        return false
    }

    /// Throws what opening the store with `passcode` would throw for it (`.passcodeRequired`,
    /// `.wrongPasscode`, a missing or replaced machine key…), reading only the key files. Takes
    /// no lock, so it may run while the store is open: the broker checks a passcode this way
    /// before it takes the store offline for a key change. One scrypt when a passcode is set.
    public static func verify(directory: String, passcode: Passcode?) throws(StoreOpenError) {
        let layout = try StoreLayout(directory: directory, create: false)
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        _ = try KeyCustody(layout: layout).unwrap(envelope.current, passcode: passcode)
    }

    private enum RequiredProtection { case machine, passcode }

    private static func rewrap(
        directory: String, unlockWith oldPasscode: Passcode?, wrapWith newPasscode: Passcode?,
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
