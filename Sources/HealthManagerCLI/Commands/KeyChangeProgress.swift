/// What the key commands say while healthd re-encrypts the store (a VACUUM INTO of the whole
/// database, seconds for most stores, minutes for very large ones): on standard error, so the
/// command's output stays its result alone. healthd answers only when it is done; the wire has
/// no progress messages for key changes.
enum KeyChangeProgress {
    static func reencrypting() {
        CommandIO.current.errors.writeLine(
            "Re-encrypting the store under a new key (as long as `healthctl key rotate`; apps wait meanwhile)…")
    }
}
