/// Finds the data key that decrypts the store's database, creating the keys of a
/// new store and settling a key rotation that was interrupted:
///
/// - the database still decrypts under the current key: the rotation never reached
///   its rename; its half-written copy and pending wrap are dropped;
/// - it decrypts only under the pending key: the rename happened; the pending key
///   becomes current.
///
/// Either way nothing committed is lost, because the rename is the single commit
/// point and both keys are on disk (in store.keys) before it.
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
        let current = try RegisteredCipherKey(custody.unwrap(envelope.current, passcode: passcode))
        switch current.probe(databaseAt: layout.databasePath) {
        case .decrypts, .noDatabase:
            if envelope.pending != nil { try abandonRotation(&envelope) }
            return current
        case .unreadable:
            throw .directoryUnusable(path: layout.directory, reason: "health.sqlite cannot be read")
        case .doesNotDecrypt:
            guard let pending = envelope.pending else { throw .wrongKey(path: layout.directory) }
            let next = try RegisteredCipherKey(custody.unwrap(pending, passcode: passcode))
            guard next.probe(databaseAt: layout.databasePath) == .decrypts else {
                throw .wrongKey(path: layout.directory)
            }
            envelope.current = pending
            envelope.pending = nil
            try envelope.save(layout)
            return next
        }
    }

    private func abandonRotation(_ envelope: inout KeyEnvelope) throws(StoreOpenError) {
        try layout.removeRotatingCopy()
        envelope.pending = nil
        try envelope.save(layout)
    }
}
