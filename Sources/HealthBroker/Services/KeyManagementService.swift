import HealthModel
import HealthStore
import HealthWire

/// The manager's key-management methods: rotate the data key, set, change or remove the
/// passcode. Only the broker may touch the key files, and it holds the store open, so each
/// change runs through `StoreHandle.changeKeys`, which takes the store offline around it.
///
/// Passcodes arrive only here, on the admin socket; they go into `Passcode` objects (cleansed
/// when released), the decoded copies are erased, and none is ever logged or put in an error.
/// Each change first checks its passcode against store.keys with the store still open, so a
/// mistyped one costs the apps nothing.
enum KeyManagementService {
    static func keyStatus(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        let directory = context.store.directory
        return MethodTable.Reply(KeyStatus(passcodeSet: try keyFiles { try StorePasscode.isSet(directory: directory) }))
    }

    static func rotateKey(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let passcode = request.passcode.isEmpty ? nil : Passcode(consuming: &request.passcode)
        request.erase()
        try await changeKeys(context, "data key rotated", after: passcode, before: passcode) { directory in
            try StorePasscode.verify(directory: directory, passcode: passcode)
        } change: { directory in
            try StoreKeyRotation.rotate(directory: directory, passcode: passcode)
        }
        return MethodTable.Reply(EmptyMessage())
    }

    static func setPasscode(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let new = Passcode(consuming: &request.newPasscode)
        request.erase()
        guard !new.isEmpty else { throw keyError(.passcodeEmpty) }
        try await changeKeys(context, "passcode set", after: new, before: nil) { directory in
            if try StorePasscode.isSet(directory: directory) { throw StoreOpenError.passcodeAlreadySet(path: directory) }
        } change: { directory in
            try StorePasscode.set(directory: directory, passcode: new)
        }
        return MethodTable.Reply(EmptyMessage())
    }

    static func changePasscode(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let old = Passcode(consuming: &request.passcode)
        let new = Passcode(consuming: &request.newPasscode)
        request.erase()
        guard !new.isEmpty else { throw keyError(.passcodeEmpty) }
        try await changeKeys(context, "passcode changed", after: new, before: old) { directory in
            try requirePasscode(old, directory: directory)
        } change: { directory in
            try StorePasscode.change(directory: directory, from: old, to: new)
        }
        return MethodTable.Reply(EmptyMessage())
    }

    static func removePasscode(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let old = Passcode(consuming: &request.passcode)
        request.erase()
        try await changeKeys(context, "passcode removed", after: nil, before: old) { directory in
            try requirePasscode(old, directory: directory)
        } change: { directory in
            try StorePasscode.remove(directory: directory, passcode: old)
        }
        return MethodTable.Reply(EmptyMessage())
    }

    // MARK: - Helpers

    /// A passcode must be set, and `passcode` must be it (one scrypt).
    private static func requirePasscode(_ passcode: Passcode, directory: String) throws(StoreOpenError) {
        guard try StorePasscode.isSet(directory: directory) else { throw .passcodeNotSet(path: directory) }
        try StorePasscode.verify(directory: directory, passcode: passcode)
    }

    private static func changeKeys(
        _ context: BrokerContext, _ done: String, after: Passcode?, before: Passcode?,
        check: @escaping @Sendable (String) throws -> Void, change: @escaping @Sendable (String) throws -> Void
    ) async throws {
        let window: StoreHandle.OfflineWindow
        do {
            window = try await context.store.changeKeys(passcodeAfter: after, passcodeBefore: before, check: check, change: change)
        } catch let error as StoreOpenError {
            context.logger.warning("key change refused or failed", metadata: ["reason": "\(error)"])
            throw keyError(error)
        }
        context.logger.notice("\(done)", metadata: [
            "store": "\(context.store.directory)", "offline": "\(window.duration)",
            "calls_that_waited": "\(window.callsThatWaited)",
        ])
    }

    /// A read of the key files, its errors turned into the manager's.
    private static func keyFiles<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as StoreOpenError {
            throw keyError(error)
        }
    }

    /// StoreOpenError texts name the file and the fix and never hold key or passcode bytes, so
    /// they go to the manager as they are; a passcode problem is the user's input to correct.
    private static func keyError(_ error: StoreOpenError) -> HKError {
        switch error {
        case .passcodeRequired, .wrongPasscode, .passcodeNotSet, .passcodeAlreadySet, .passcodeEmpty:
            HKError(.errorInvalidArgument, error.description)
        default:
            HKError(.errorDatabaseInaccessible, error.description)
        }
    }
}
