/// Finds the data key that decrypts the store's database, creating the keys of a
/// new store and settling a key rotation that was interrupted:
///
/// - the database still decrypts under the current key: the rotation never reached
///   its rename; its half-written copy and pending wrap are dropped;
/// - it decrypts only under the pending key: the rename happened; the pending key
///   becomes current.
///
/// Either way nothing committed is lost, because the rename is the single commit
/// point and both keys are on disk (in store.keys) before it. The two wraps may be
/// protected differently (a passcode set, change or removal is a rotation): before
/// the rename the old protection's secret opens the store, after it the new one's.
struct DataKeyResolver {
    let layout: StoreLayout

    func resolve(passcode: Passcode?, createIfNew: Bool) throws(StoreOpenError) -> RegisteredCipherKey {
        let custody = KeyCustody(layout: layout)
        guard var envelope = try KeyEnvelope.load(layout) else {
            guard createIfNew, !StoreFileIO.exists(layout.databasePath) else {
                throw .keyFileMissing(path: layout.keyEnvelopePath)
            }
            let dataKey = try SecretBytes.random(count: 32)
            try KeyEnvelope(current: custody.wrap(dataKey, passcode: passcode)).save(layout)
            return try RegisteredCipherKey(dataKey)
        }
        guard let pending = envelope.pending else {
            let current = try RegisteredCipherKey(custody.unwrap(envelope.current, passcode: passcode))
            guard try decrypts(current) else { throw .wrongKey(path: layout.directory) }
            return current
        }
        // An unsettled rotation: the secret given may open either wrap, or only one.
        var currentFailure: StoreOpenError?
        do {
            let current = try RegisteredCipherKey(custody.unwrap(envelope.current, passcode: passcode))
            if try decrypts(current) {
                try abandonRotation(&envelope)
                return current
            }
        } catch {
            currentFailure = error
        }
        let next: RegisteredCipherKey
        do {
            next = try RegisteredCipherKey(custody.unwrap(pending, passcode: passcode))
        } catch {
            // The current wrap's refusal (wrong passcode) speaks for the store as it was;
            // if the current key opened but decrypts nothing, the rename happened and the
            // pending wrap's refusal is the one that applies.
            throw currentFailure ?? error
        }
        guard try decrypts(next) else { throw currentFailure ?? .wrongKey(path: layout.directory) }
        envelope.current = pending
        envelope.pending = nil
        try envelope.save(layout)
        return next
    }

    /// Whether `key` decrypts the database (true when there is none yet).
    private func decrypts(_ key: RegisteredCipherKey) throws(StoreOpenError) -> Bool {
        switch key.probe(databaseAt: layout.databasePath) {
        case .decrypts, .noDatabase: true
        case .doesNotDecrypt: false
        case .unreadable: throw .directoryUnusable(path: layout.directory, reason: "health.sqlite cannot be read")
        }
    }

    private func abandonRotation(_ envelope: inout KeyEnvelope) throws(StoreOpenError) {
        try layout.removeRotatingCopy()
        envelope.pending = nil
        try envelope.save(layout)
    }
}
