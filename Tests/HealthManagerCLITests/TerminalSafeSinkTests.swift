@testable import HealthManagerCLI
import Foundation
import Testing

/// The sink every command's output and errors pass (`CommandIO` wraps both in
/// `TerminalSafeSink`): generated over every character `TerminalTextTests` names, each alone
/// between plain text, on both streams, with styling off and on. Each is written as a `\uXXXX`
/// escape; newline and tab pass; with styling on, only the CLI's own bold and reset (and, on
/// the error stream, the progress line's carriage return and erase-line) pass, while every other
/// sequence an app could send (clear screen, retitle, 8-bit CSI) stays escaped. The escape is
/// JSON's, so a `--json` line stays JSON with the same string.
@Suite(.timeLimit(.minutes(10))) struct TerminalSafeSinkTests {
    static func io(styling: Bool) -> (CommandIO, CapturedText, CapturedText) {
        let output = CapturedText()
        let errors = CapturedText()
        return (CommandIO(output: output, errors: errors, input: ScriptedLines([]), usesStyling: styling), output, errors)
    }

    @Test(arguments: [false, true])
    func everyUnsafeCharacterIsEscapedOnBothStreams(styling: Bool) {
        for scalar in TerminalTextTests.unsafe where scalar != "\n" && scalar != "\t" && scalar != "\r" {
            let (io, output, errors) = Self.io(styling: styling)
            io.output.write("a\(scalar)b")
            io.errors.write("a\(scalar)b")
            let expected = "a" + String(format: "\\u%04X", scalar.value) + "b"
            #expect(output.value == expected, "U+\(String(scalar.value, radix: 16)) on stdout, styling \(styling)")
            #expect(errors.value == expected, "U+\(String(scalar.value, radix: 16)) on stderr, styling \(styling)")
        }
    }

    @Test func layoutAndTheCLIsOwnStylingPassAndNothingElse() throws {
        let (plain, plainOut, plainErr) = Self.io(styling: false)
        plain.output.write("a\tb\nc\u{1B}[1mbold\u{1B}[0m")
        plain.errors.write("\r\u{1B}[Kprogress")
        #expect(plainOut.value == "a\tb\nc\\u001B[1mbold\\u001B[0m")
        #expect(plainErr.value == "\\u000D\\u001B[Kprogress")

        let (styled, styledOut, styledErr) = Self.io(styling: true)
        styled.output.write("\u{1B}[1mbold\u{1B}[0m \r\u{1B}[K \u{1B}[2J \u{1B}]0;title\u{07}")
        styled.errors.write("\r\u{1B}[Kprogress \u{1B}[2J")
        #expect(styledOut.value == "\u{1B}[1mbold\u{1B}[0m \\u000D\\u001B[K \\u001B[2J \\u001B]0;title\\u0007")
        #expect(styledErr.value == "\r\u{1B}[Kprogress \\u001B[2J")
    }

    @Test func aJSONLineStaysJSONWithTheSameString() throws {
        let text = "x\u{202E}y\u{7F}\u{85}\u{2028}z"
        let line = String(decoding: try JSONEncoder().encode(["name": text]), as: UTF8.self)
        let (io, output, _) = Self.io(styling: false)
        io.output.write(line)
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(output.value.utf8))
        #expect(decoded["name"] == text)
        #expect(!output.value.unicodeScalars.contains { $0.value == 0x202E })
    }
}
