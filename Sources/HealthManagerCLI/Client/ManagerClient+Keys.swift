public import HealthWire

/// The key-management methods. Passcodes go only to healthd's admin socket; the caller erases
/// its `PasscodeCredentials` afterwards (the commands do).
extension ManagerClient {
    public func keyStatus() async throws(HealthCtlError) -> KeyStatus {
        try await unary(.getKeyStatus, EmptyMessage(), action: "tell how the store's key is protected")
    }

    /// `credentials.passcode`: the store's passcode, when one is set.
    public func rotateKey(_ credentials: PasscodeCredentials) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.rotateKey, credentials, action: "rotate the store's data key")
    }

    /// `credentials.newPasscode`: the passcode to set.
    public func setPasscode(_ credentials: PasscodeCredentials) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.setPasscode, credentials, action: "set the passcode")
    }

    public func changePasscode(_ credentials: PasscodeCredentials) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.changePasscode, credentials, action: "change the passcode")
    }

    /// `credentials.passcode`: the current passcode.
    public func removePasscode(_ credentials: PasscodeCredentials) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.removePasscode, credentials, action: "remove the passcode")
    }

    public func lock() async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.lock, EmptyMessage(), action: "lock the store")
    }

    /// `credentials.passcode`: the store's passcode, when one is set (empty: the machine key).
    public func unlock(_ credentials: PasscodeCredentials) async throws(HealthCtlError) -> UnlockReport {
        try await unary(.unlock, credentials, action: "unlock the store")
    }
}
