/// Turns wraps into data keys and back, fetching the machine key or deriving the
/// passcode key as each wrap needs.
struct KeyCustody {
    let layout: StoreLayout

    func unwrap(_ wrapped: WrappedDataKey, passcode: Passcode?) throws(StoreOpenError) -> SecretBytes {
        switch wrapped.protection {
        case .machine:
            let keyEncryptionKey = try MachineKey.load(layout)
            guard let dataKey = wrapped.open(with: keyEncryptionKey) else {
                throw .machineKeyDoesNotUnwrap(path: layout.machineKeyPath)
            }
            return dataKey
        case let .passcode(kdf):
            guard let passcode else { throw .passcodeRequired(path: layout.directory) }
            guard let dataKey = wrapped.open(with: try kdf.deriveKey(from: passcode)) else {
                throw .wrongPasscode(path: layout.directory)
            }
            return dataKey
        }
    }

    /// Wraps under a passcode (fresh salt) when one is given, else under the
    /// machine key (created if the store has none).
    func wrap(_ dataKey: SecretBytes, passcode: Passcode?) throws(StoreOpenError) -> WrappedDataKey {
        if let passcode {
            let kdf = try PasscodeKDF.fresh()
            return try .seal(dataKey, protection: .passcode(kdf), keyEncryptionKey: kdf.deriveKey(from: passcode))
        }
        return try .seal(dataKey, protection: .machine, keyEncryptionKey: MachineKey.loadOrCreate(layout))
    }
}
