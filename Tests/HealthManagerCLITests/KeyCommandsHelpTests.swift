import HealthManagerCLI
import Testing

/// The key-management commands document themselves like the others: an example each, the
/// socket option, and where passcodes are read from.
@Suite(.timeLimit(.minutes(10))) struct KeyCommandsHelpTests {
    static let commands: [[String]] = [
        ["key"], ["key", "rotate"], ["passcode"], ["passcode", "set"], ["passcode", "change"], ["passcode", "remove"],
    ]

    @Test(arguments: commands)
    func helpShowsAnExample(command: [String]) async {
        let outcome = await runHealthCtl(command + ["--help"])
        #expect(outcome.exitCode == 0)
        let example = "  " + (["healthctl"] + command).joined(separator: " ")
        #expect(outcome.output.contains(example + " ") || outcome.output.contains(example + "\n"), "no example for \(command)")
        if command.count == 2 {
            #expect(outcome.output.contains("--socket <path>"))
        }
    }

    @Test func passcodeHelpSaysHowHealthdGetsThePasscode() async {
        let outcome = await runHealthCtl(["passcode", "--help"])
        #expect(outcome.output.contains("--passcode-file"))
        #expect(outcome.output.contains("without echo"))
    }

    /// A passcode set, change or removal re-encrypts the store (StorePasscode): the help says so,
    /// and what it costs, since apps wait for it.
    @Test(arguments: [["passcode", "set"], ["passcode", "change"], ["passcode", "remove"]])
    func passcodeChangesSayTheyReencryptTheStore(command: [String]) async {
        let outcome = await runHealthCtl(command + ["--help"])
        let text = outcome.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("re-encrypts the store under a new data key"), "\(command): \(text)")
        #expect(text.contains("as long as `healthctl key rotate`"), "\(command): \(text)")
    }
}
