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
        var report = UnlockReport(merged: 0)
        try await KeyChangeSession.run(connection) { client, credentials in
            if try await client.keyStatus().passcodeSet {
                credentials.passcode = try PasscodeReader().read("the store's passcode")
            }
            report = try await client.unlock(credentials)
        }
        let output = CommandIO.current.output
        output.writeLine("Unlocked: merged \(report.merged) change\(report.merged == 1 ? "" : "s") made while locked.")
        for line in report.damaged + Self.refusalLines(report) {
            CommandIO.current.errors.writeLine(ErrorLines.warning(line))
        }
    }

    /// One line per app and reason whose journaled calls the store refused at the merge: the
    /// app was told they saved, and they changed nothing. App ids and reasons are shown escaped
    /// (`TerminalText`): a reason may quote what the app sent.
    static func refusalLines(_ report: UnlockReport) -> [String] {
        var lines = report.refused.map { refusal in
            let calls = refusal.count == 1 ? "1 call" : "\(refusal.count) calls"
            return "\(calls) \(TerminalText.shown(refusal.appID)) made while locked \(refusal.count == 1 ? "was" : "were") refused "
                + "at the merge and changed nothing (the app was told it saved): \(TerminalText.shown(refusal.reason))"
        }
        if report.refusedMore > 0 {
            lines.append("\(report.refusedMore) more call\(report.refusedMore == 1 ? "" : "s") made while locked, of further apps or "
                         + "reasons, \(report.refusedMore == 1 ? "was" : "were") refused at the merge; healthd's log has their count")
        }
        return lines
    }
}
