import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Every string healthctl prints, in a world where every string an app can choose is hostile:
/// the app's display name and usage descriptions (its manifest), device fields, metadata keys
/// and values, workout event metadata, attachment names and content types, and a medication
/// named behind a bidi override. Each holds C0 and C1 controls, DEL, ANSI escapes (CSI clear
/// screen, OSC retitle), the bidi overrides and isolates (U+202E, U+2066–2069) and a newline
/// followed by a forged line. (NUL and invalid UTF-8 never get this far: the wire refuses
/// them, `WireDepthGuard`.)
///
/// The commands are enumerated from healthctl's own ArgumentParser tree
/// (`--experimental-dump-help`): every leaf must be either run here (`HealthCtlCommandSweep.runs`)
/// or named as changing state, with why (`HealthCtlCommandSweep.notShowing`), so a new command
/// is swept or consciously exempted. Each run's stdout and stderr must hold no raw control or
/// bidi character (only newline and tab) and no forged line. One healthd, about 30 healthctl runs.
@Suite(.timeLimit(.minutes(10)), .serialized) struct HealthCtlHostileTextEndToEndTests {
    static let appID = "org.test.hostile-text"
    /// The marker `HOSTILE` shows where an app's string reached the output.
    static let hostile = "HOSTILE\u{1B}]0;retitled\u{07}\u{1B}[2J\u{1B}[31m\u{9B}1m\u{202E}\u{2066}evil\u{2069}\u{200F}\u{7F}\u{85}\u{8}\u{2028}\rFORGED\nFORGED"

    @Test func everyHealthctlCommandIsSweptOrNamedAsChangingState() async throws {
        let broker = try BrokerProcess()
        let leaves = try await HealthCtlCommandSweep.leaves(broker)
        let classified = Set(HealthCtlCommandSweep.runs.keys).union(HealthCtlCommandSweep.notShowing.keys)
        #expect(Set(leaves).subtracting(classified).isEmpty,
                "healthctl commands neither swept nor named as changing state: \(Set(leaves).subtracting(classified).sorted())")
        #expect(classified.subtracting(leaves).isEmpty, "classified commands healthctl no longer has: \(classified.subtracting(leaves).sorted())")
    }

    @Test func noCommandPrintsARawControlOrBidiCharacterFromAnApp() async throws {
        let broker = try BrokerProcess()
        let world = try await HostileWorld.build(on: broker, hostile: Self.hostile, appID: Self.appID)
        var shownBy: [String] = []
        for (command, runs) in HealthCtlCommandSweep.runs.sorted(by: { $0.key < $1.key }) {
            for arguments in runs(world) {
                let result = try await broker.healthctl(arguments)
                for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                    let problems = Self.rawProblems(in: text)
                    #expect(problems.isEmpty, "healthctl \(arguments.joined(separator: " ")) \(stream): \(problems)")
                }
                if (result.stdout + result.stderr).contains("HOSTILE") { shownBy.append(command) }
            }
        }
        // The sweep is not vacuous: the hostile strings did reach these listings (escaped).
        for command in ["samples", "apps list", "medications list", "attachments list", "sources list"] {
            #expect(shownBy.contains(command), "\(command) never showed the app's strings: the world did not reach it (\(world.refusals))")
        }
    }

    /// Raw characters that drive a terminal: controls other than newline and tab, the bidi
    /// formatting characters, the line and paragraph separators; and a line an app forged.
    /// (Kept apart from healthctl's `TerminalText`: the test's own oracle.)
    static func rawProblems(in text: String) -> [String] {
        var problems: [String] = []
        for scalar in text.unicodeScalars where scalar != "\n" && scalar != "\t" {
            switch scalar.value {
            case 0x00 ... 0x1F, 0x7F ... 0x9F, 0x061C, 0x200E, 0x200F, 0x202A ... 0x202E, 0x2066 ... 0x2069, 0x2028, 0x2029:
                problems.append(String(format: "raw U+%04X", scalar.value))
            default: break
            }
        }
        if text.contains("\nFORGED") { problems.append("a line forged by an app's newline") }
        return Array(Set(problems)).sorted()
    }
}
