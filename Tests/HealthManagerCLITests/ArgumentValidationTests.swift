import HealthManagerCLI
import Testing

/// Command lines that must be refused before anything is sent, with exit status 64 and a
/// message that says how to fix them. No socket exists at the path given, so a command
/// that got past validation would fail differently (69).
@Suite(.timeLimit(.minutes(10))) struct ArgumentValidationTests {
    static let socket = ["--socket", "/nonexistent/admin.sock"]

    @Test(arguments: [
        (["requests", "--allow-all"], "--allow-all needs --id N"),
        (["requests", "--allow-read", "heartRate"], "--allow-read needs --id N"),
        (["requests", "--id", "3"], "--id needs a decision"),
        (["requests", "--id", "3", "--answer", "--allow-all"], "Use one of them"),
        (["requests", "--id", "3", "--allow-all", "--deny-all"], "contradict each other"),
        (["requests", "--id", "3", "--deny-all", "--allow-read", "heartRate"], "contradict each other"),
        (["requests", "--timeout", "5"], "--timeout only applies to --wait"),
        (["requests", "--wait", "--timeout", "0"], "--timeout must be a positive number"),
        (["requests", "--id", "3", "--allow-read", "hartRate"], "did you mean heartRate?"),
        (["grant", "com.example.x", "write", "heartRate"], "Please provide one of 'read' and 'share'"),
        (["grant", "com.example.x", "read"], "name at least one type"),
        (["revoke", "com.example.x", "share", "nonsense-type-name"], "unknown health type 'nonsense-type-name'"),
        (["grants", ""], "the app id must not be empty"),
        (["status", "--socket", ""], "--socket needs a path"),
    ])
    func refused(arguments: [String], message: String) async {
        let outcome = await runHealthCtl(arguments + (arguments.contains("--socket") ? [] : Self.socket))
        #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue, "\(outcome.errors)")
        #expect(outcome.errors.contains(message), "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
    }

    @Test func unreachableBrokerIsOneClearLine() async {
        let outcome = await runHealthCtl(["status"] + Self.socket)
        #expect(outcome.exitCode == HealthCtlExitCode.unavailable.rawValue)
        #expect(outcome.errors == """
            healthctl: cannot reach healthd at /nonexistent/admin.sock: No such file or directory — is healthd running? start it with `healthd`

            """)
    }

    @Test func unreadableManifestIsReportedBeforeConnecting() async {
        let outcome = await runHealthCtl(["apps", "install", "/nonexistent/app.json"] + Self.socket)
        #expect(outcome.exitCode == HealthCtlExitCode.noInput.rawValue)
        #expect(outcome.errors == "healthctl: cannot read manifest /nonexistent/app.json: No such file or directory\n")
    }
}
