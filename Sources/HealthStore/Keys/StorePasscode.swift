/// Passcode protection of a store's data key. With a passcode set, store.keys holds
/// the data key wrapped only under the scrypt-derived key, so the store cannot be
/// opened without the passcode (the "locked" state); machine.key stays on disk (it
/// seals the locked-start snapshot) but no longer unwraps anything until the passcode
/// is removed.
///
/// Setting, changing and removing a passcode are key changes, not re-wraps: each
/// re-encrypts the store under a new data key (`StoreKeyRotation`), wrapped under the
/// new protection. Re-wrapping the old key would leave every earlier store.keys — a
/// backup, a snapshot, the freed blocks of the file the rename replaced — opening
/// today's database with machine.key or the old passcode. What stays: pages written
/// before the change that still lie in freed blocks of the old database file, under
/// the old key (SECURITY.md "Locked store").
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

    /// Whether a passcode protects the store (reads store.keys only). Also true while a
    /// passcode set was interrupted after its commit point and not yet settled (the pending
    /// key is passcode-wrapped): the store may then need the passcode to open.
    public static func isSet(directory: String) throws(StoreOpenError) -> Bool {
        let layout = try StoreLayout(directory: directory, create: false)
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        return [envelope.current, envelope.pending].contains { wrap in
            if case .passcode = wrap?.protection { true } else { false }
        }
    }

    /// Throws what opening the store with `passcode` would throw for it (`.passcodeRequired`,
    /// `.wrongPasscode`, a missing or replaced machine key…), reading only the key files. Takes
    /// no lock, so it may run while the store is open: the broker checks a passcode this way
    /// before it takes the store offline for a key change. One scrypt when a passcode is set.
    /// While a rotation is unsettled (a kill mid passcode change) a passcode that unwraps the
    /// pending key passes too: which of the two opens the database, the open decides.
    public static func verify(directory: String, passcode: Passcode?) throws(StoreOpenError) {
        let layout = try StoreLayout(directory: directory, create: false)
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        let custody = KeyCustody(layout: layout)
        do {
            _ = try custody.unwrap(envelope.current, passcode: passcode)
        } catch {
            guard let pending = envelope.pending, (try? custody.unwrap(pending, passcode: passcode)) != nil else { throw error }
        }
    }

    private enum RequiredProtection { case machine, passcode }

    /// Checks the protection, settles an interrupted rotation (so the key replaced is the one
    /// that decrypts the database), checks again, and rotates to a new key under `newPasscode`.
    private static func rewrap(
        directory: String, unlockWith oldPasscode: Passcode?, wrapWith newPasscode: Passcode?,
        require required: RequiredProtection
    ) throws(StoreOpenError) {
        if let newPasscode, newPasscode.isEmpty { throw .passcodeEmpty }
        let layout = try StoreLayout(directory: directory, create: false)
        let lock = try StoreLock(layout)
        defer { withExtendedLifetime(lock) {} }
        guard let envelope = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        try check(envelope, required, layout)
        let oldKey = try DataKeyResolver(layout: layout).resolve(passcode: oldPasscode, createIfNew: false)
        guard let settled = try KeyEnvelope.load(layout) else { throw .keyFileMissing(path: layout.keyEnvelopePath) }
        try check(settled, required, layout)
        try StoreKeyRotation.rotate(layout, from: oldKey, wrappingWith: newPasscode)
    }

    private static func check(_ envelope: KeyEnvelope, _ required: RequiredProtection,
                              _ layout: StoreLayout) throws(StoreOpenError) {
        switch (envelope.current.protection, required) {
        case (.machine, .passcode): throw .passcodeNotSet(path: layout.directory)
        case (.passcode, .machine): throw .passcodeAlreadySet(path: layout.directory)
        default: break
        }
    }
}
