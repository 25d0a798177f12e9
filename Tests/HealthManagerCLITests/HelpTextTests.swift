import HealthManagerCLI
import Testing

/// Every command's help renders, shows an example of itself, and the completion scripts build.
@Suite(.timeLimit(.minutes(10))) struct HelpTextTests {
    static let commands: [[String]] = [
        [], ["status"], ["apps"], ["apps", "install"], ["apps", "list"], ["apps", "storage"], ["requests"],
        ["grant"], ["revoke"], ["grants"], ["samples"], ["chart"],
        ["medications", "list"], ["medications", "add"], ["medications", "log-dose"], ["medications", "archive"],
    ]

    @Test(arguments: commands)
    func helpShowsAnExample(command: [String]) async {
        let outcome = await runHealthCtl(command + ["--help"])
        #expect(outcome.exitCode == 0)
        #expect(outcome.errors.isEmpty)
        #expect(outcome.output.contains("USAGE: healthctl"))
        let example = "  " + (["healthctl"] + (command.isEmpty ? ["status"] : command)).joined(separator: " ")
        #expect(outcome.output.contains(example + " ") || outcome.output.contains(example + "\n"), "no example for \(command)")
    }

    @Test func commandsThatTalkToHealthdDocumentTheSocketOption() async {
        for command in Self.commands where !command.isEmpty && command != ["apps"] {
            let outcome = await runHealthCtl(command + ["--help"])
            #expect(outcome.output.contains("--socket <path>"), "\(command)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptCoversTheSubcommands(shell: String) async {
        let outcome = await runHealthCtl(["--generate-completion-script", shell])
        #expect(outcome.exitCode == 0)
        for name in ["status", "apps", "requests", "grant", "revoke", "grants", "samples", "allow-read", "heartRate", "medications", "log-dose"] {
            #expect(outcome.output.contains(name), "\(shell) script lacks \(name)")
        }
    }

    @Test func noSubcommandPrintsTheOverview() async {
        let outcome = await runHealthCtl([])
        #expect(outcome.exitCode == 0)
        #expect(outcome.output.contains("SUBCOMMANDS:"))
    }
}
