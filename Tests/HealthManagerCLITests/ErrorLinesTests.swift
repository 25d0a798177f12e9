import Testing

@testable import HealthManagerCLI

/// `ErrorLines`, the one place healthctl renders an error: what an error quotes is one line,
/// what healthctl composes under it (a manifest's problems, ArgumentParser's usage) stays lines.
@Suite(.timeLimit(.minutes(10))) struct ErrorLinesTests {
    @Test func aQuotedNewlineCarriageReturnOrEscapeIsShownEscaped() {
        let error = HealthCtlError.importUnreadable(reason: "a\nhealthctl: done\r\u{1B}[2J\u{202E}")
        #expect(ErrorLines.lines(error) == [#"healthctl: cannot import: a\nhealthctl: done\r\u{1B}[2J\u{202E}"#])
    }

    @Test func aManifestsProblemsStayOneLineEach() {
        let error = HealthCtlError.manifestInvalid(file: "m\n.json", problems: ["id: x\ny", "version is missing"])
        #expect(ErrorLines.lines(error) == [#"healthctl: m\n.json is not a valid app manifest:"#, #"  - id: x\ny"#, "  - version is missing"])
    }

    @Test func aUsageErrorQuotingANewlineKeepsItsUsageLines() async {
        let outcome = await runHealthCtl(["grants", "org.example.a", "extra\nhealthctl: forged"])
        #expect(outcome.exitCode != 0)
        let lines = outcome.errors.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(#"extra\nhealthctl: forged"#) == true, "\(outcome.errors)")
        #expect(!lines.contains { $0.hasPrefix("healthctl: forged") }, "\(outcome.errors)")
        #expect(lines.contains { $0.hasPrefix("Usage: ") }, "ArgumentParser's own lines stay: \(outcome.errors)")
    }
}
