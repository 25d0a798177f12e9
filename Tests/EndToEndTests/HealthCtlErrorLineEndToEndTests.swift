import Foundation
import Testing
import TestSupport

/// Every error healthctl prints is one line (`ErrorLines`), whatever the text it quotes holds:
/// a newline or carriage return that an app id, a file or healthd's refusal put into it is shown
/// escaped (`\n`), so nothing under `healthctl: …` can pass for healthctl's own output. Two
/// inputs that put a newline into an error text, each through the real `healthctl` and a real
/// healthd, piped and on a pseudo-terminal (`script`, so styling is on):
///
/// - healthd's own refusal quoting an app id: `healthctl grants` of an id holding a newline
///   ("no installed app …", `ManagerService.listGrants`);
/// - a file: an export.xml whose record's `startDate` holds a newline (`&#10;` in an XML
///   attribute) — "has a startDate that is not a date: …", the import's reader.
///
/// Before session 23 both printed the forged text as a line of its own under the error.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HealthCtlErrorLineEndToEndTests {
    static let forged = "healthctl: the store was verified; nothing to do"

    /// An export.xml whose record's start date holds `text` (`&#10;` is a newline in an XML attribute).
    static func export(startDate text: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-02 09:00:00 +0200"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="\(text)" endDate="2024-05-01 09:10:00 +0200" value="12"/>
        </HealthData>
        """
    }

    /// What each case runs: healthctl's arguments (without `--socket`).
    static func cases(_ broker: BrokerProcess) throws -> [(name: String, arguments: [String])] {
        let xml = broker.root + "/export.xml"
        try Data(export(startDate: "2024&#10;\(forged)").utf8).write(to: URL(fileURLWithPath: xml))
        return [
            ("healthd's refusal quoting an app id", ["grants", "org.example.x\n\(forged)"]),
            ("an export file's date", ["import", xml, "--characteristics", "no"]),
        ]
    }

    /// No line of `text` is the forged one, and the newline shows as its escape.
    static func expectOneLine(_ text: String, _ name: String, _ result: ProcessResult) {
        // A progress line's erase-line is the terminal's business, not a line of text.
        let lines = text.replacingOccurrences(of: "\u{1B}[K", with: "")
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map(String.init)
        #expect(!lines.contains { $0.hasPrefix(forged) }, "\(name): a forged line: \(result)")
        #expect(lines.contains { $0.hasPrefix("healthctl: ") && $0.contains("\\n" + forged) }, "\(name): \(result)")
        #expect(lines.filter { $0.hasPrefix("healthctl: ") }.count == 1, "\(name): \(result)")
    }

    @Test func anErrorQuotingANewlineIsOneLineWhenPiped() async throws {
        let broker = try BrokerProcess()
        for (name, arguments) in try Self.cases(broker) {
            let result = try await broker.healthctl(arguments)
            #expect(result.status != 0, "\(name): \(result)")
            #expect(result.stdout.isEmpty, "\(name): \(result)")
            Self.expectOneLine(result.stderr, name, result)
        }
    }

    @Test func anErrorQuotingANewlineIsOneLineOnATerminal() async throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "util-linux `script` gives healthctl a terminal")
        let broker = try BrokerProcess()
        for (name, arguments) in try Self.cases(broker) {
            // The arguments go over in the environment, so no shell quoting can change them.
            var environment = ["XDG_STATE_HOME": broker.root + "/state", "HEALTHCTL": Products.path("healthctl"),
                               "SOCKET": broker.adminSocket, "TERM": "xterm", "SHELL": "/bin/sh"]
            for (index, argument) in arguments.enumerated() { environment["ARG\(index)"] = argument }
            let command = "exec \"$HEALTHCTL\" " + arguments.indices.map { "\"$ARG\($0)\"" }.joined(separator: " ") + " --socket \"$SOCKET\""
            let result = try await ProcessRun.run(script, ["-qec", command, "/dev/null"], environment: environment)
            #expect(result.status != 0, "\(name): \(result)")
            // Styling is on: a terminal is what healthctl writes to.
            Self.expectOneLine(result.stdout, name, result)
        }
    }
}
