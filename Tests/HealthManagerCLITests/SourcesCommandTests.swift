import HealthManagerCLI
import Testing

/// `healthctl sources …` command lines refused before anything is sent.
@Suite(.timeLimit(.minutes(10))) struct SourcesArgumentValidationTests {
    @Test(arguments: [
        (["sources", "priority", "stepCount"], "give the app ids in priority order, or --reset"),
        (["sources", "priority", "stepCount", "org.a", "--reset"], "give app ids or --reset, not both"),
        (["sources", "priority", "stepCount", "org.a", "org.a"], "org.a is listed twice"),
        (["sources", "priority", "sleepAnalysis", "org.a"], "is not a quantity type"),
        (["sources", "list", "sleepAnalysis"], "is not a quantity type"),
    ])
    func refused(arguments: [String], message: String) async {
        let outcome = await runHealthCtl(arguments + ArgumentValidationTests.socket)
        #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue, "\(outcome.errors)")
        #expect(outcome.errors.contains(message), "\(outcome.errors)")
    }
}

/// The default order `healthctl sources` help states is the one healthd applies
/// (`SourcePriorityRepository.rankedSources`): by app id, never by when an app first saved.
@Suite(.timeLimit(.minutes(10))) struct SourcesHelpTests {
    @Test(arguments: [["sources"], ["sources", "priority"], ["sources", "list"]])
    func helpStatesTheDefaultOrder(command: [String]) async {
        let outcome = await runHealthCtl(command + ["--help"])
        #expect(outcome.exitCode == 0)
        let text = outcome.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("by app id"), "\(outcome.output)")
        #expect(!text.contains("first saved data"), "\(outcome.output)")
    }
}
