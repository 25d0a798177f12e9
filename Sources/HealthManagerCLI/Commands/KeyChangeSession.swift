import HealthWire

/// What the key and passcode commands share: a connection to healthd and passcode credentials
/// that are erased on every way out of the command, thrown errors included.
enum KeyChangeSession {
    static func run(_ connection: ConnectionOptions,
                    _ body: (ManagerClient, inout PasscodeCredentials) async throws -> Void) async throws {
        let client = try connection.connect()
        defer { client.close() }
        var credentials = PasscodeCredentials()
        defer { credentials.erase() }
        try await body(client, &credentials)
    }
}
