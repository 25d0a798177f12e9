import ArgumentParser
import HealthWire

/// `healthctl unlock`.
struct UnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the store and merge what apps saved while it was locked.",
        discussion: """
            When a passcode protects the store you are asked for it (from the terminal \
            without echo, else the first line of standard input). Without a passcode the \
            machine key unlocks it: locking then only protects against a process that can \
            no longer reach healthd, not against root or your own account. After three \
            wrong passcodes each further one doubles the wait before the next attempt.

            Example:
              healthctl unlock
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        var merged = 0
        var damaged: [String] = []
        try await KeyChangeSession.run(connection) { client, credentials in
            if try await client.keyStatus().passcodeSet {
                credentials.passcode = try PasscodeReader().read("the store's passcode")
            }
            let report = try await client.unlock(credentials)
            merged = report.merged
            damaged = report.damaged
        }
        let output = CommandIO.current.output
        output.writeLine("Unlocked: merged \(merged) change\(merged == 1 ? "" : "s") made while locked.")
        for line in damaged {
            CommandIO.current.errors.writeLine("warning: \(line)")
        }
    }
}
