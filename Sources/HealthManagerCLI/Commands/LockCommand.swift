import ArgumentParser
import HealthWire

/// `healthctl lock`.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the store: healthd drops its data key until `healthctl unlock`.",
        discussion: """
            While locked, apps' reads fail with errorDatabaseInaccessible and their running \
            queries end; authorization status and requests keep working, and saves are kept \
            in an encrypted pending journal that healthd itself cannot read until unlock, \
            when they are merged in order.

            Example:
              healthctl lock
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.lock()
        CommandIO.current.output.writeLine("Locked: healthd no longer holds the store's key. Unlock with `healthctl unlock`.")
    }
}
