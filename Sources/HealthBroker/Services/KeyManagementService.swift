import HealthModel
import HealthStore
import HealthWire

/// The manager's key-management methods: rotate the data key, set, change or remove the
/// passcode. Only the broker may touch the key files, and it holds the store open, so each
/// change runs through `StoreHandle.changeKeys`, which takes the store offline around it.
///
/// Passcodes arrive only here, on the admin socket; they go into `Passcode` objects (cleansed
/// when released), the decoded copies are erased, and none is ever logged or put in an error.
/// Each passcode is checked against store.keys before the store goes offline, so a mistyped one
/// costs the apps nothing.
enum KeyManagementService {
    static func keyStatus(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        let directory = context.store.directory
        return MethodTable.Reply(KeyStatus(passcodeSet: try readKeyFiles { try StorePasscode.isSet(directory: directory) }))
    }

    static func rotateKey(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let passcode = request.passcode.isEmpty ? nil : Passcode(consuming: &request.passcode)
        request.erase()
        let directory = context.store.directory
        try await verifyOffPool { try StorePasscode.verify(directory: directory, passcode: passcode) }
        try await changeKeys(context, after: passcode, before: passcode) { directory in
            try StoreKeyRotation.rotate(directory: directory, passcode: passcode)
        }
        context.logger.notice("data key rotated", metadata: ["store": "\(directory)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func setPasscode(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let new = Passcode(consuming: &request.newPasscode)
        request.erase()
        guard !new.isEmpty else { throw keyError(.passcodeEmpty) }
        let directory = context.store.directory
        guard try !readKeyFiles({ try StorePasscode.isSet(directory: directory) }) else {
            throw keyError(.passcodeAlreadySet(path: directory))
        }
        try await changeKeys(context, after: new, before: nil) { directory in
            try StorePasscode.set(directory: directory, passcode: new)
        }
        context.logger.notice("passcode set", metadata: ["store": "\(directory)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func changePasscode(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let old = Passcode(consuming: &request.passcode)
        let new = Passcode(consuming: &request.newPasscode)
        request.erase()
        guard !new.isEmpty else { throw keyError(.passcodeEmpty) }
        let directory = context.store.directory
        try await requirePasscode(old, directory: directory)
        try await changeKeys(context, after: new, before: old) { directory in
            try StorePasscode.change(directory: directory, from: old, to: new)
        }
        context.logger.notice("passcode changed", metadata: ["store": "\(directory)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func removePasscode(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var request = try PasscodeCredentials(wire: payload)
        let old = Passcode(consuming: &request.passcode)
        request.erase()
        let directory = context.store.directory
        try await requirePasscode(old, directory: directory)
        try await changeKeys(context, after: nil, before: old) { directory in
            try StorePasscode.remove(directory: directory, passcode: old)
        }
        context.logger.notice("passcode removed", metadata: ["store": "\(directory)"])
        return MethodTable.Reply(EmptyMessage())
    }

    // MARK: - Helpers

    /// A passcode must be set, and `passcode` must be it.
    private static func requirePasscode(_ passcode: Passcode, directory: String) async throws {
        guard try readKeyFiles({ try StorePasscode.isSet(directory: directory) }) else {
            throw keyError(.passcodeNotSet(path: directory))
        }
        try await verifyOffPool { try StorePasscode.verify(directory: directory, passcode: passcode) }
    }

    private static func changeKeys(
        _ context: BrokerContext, after: Passcode?, before: Passcode?,
        _ change: @escaping @Sendable (String) throws -> Void
    ) async throws {
        do {
            try await context.store.changeKeys(passcodeAfter: after, passcodeBefore: before, change)
        } catch let error as StoreOpenError {
            context.logger.error("key change failed", metadata: ["reason": "\(error)"])
            throw keyError(error)
        }
    }

    /// Reads of the key files, their errors turned into the manager's.
    private static func readKeyFiles<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as StoreOpenError {
            throw keyError(error)
        }
    }

    /// The same, off the cooperative pool: verifying a passcode runs scrypt (about a second).
    private static func verifyOffPool(_ check: @escaping @Sendable () throws -> Void) async throws {
        do {
            try await BlockingWork.run { try check() }
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
