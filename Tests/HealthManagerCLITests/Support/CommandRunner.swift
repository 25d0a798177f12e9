import Foundation
import HealthManagerCLI
import Synchronization

/// Text a command wrote, captured.
final class CapturedText: TextSink {
    private let text = Mutex("")
    func write(_ text: String) { self.text.withLock { $0 += text } }
    var value: String { text.withLock { $0 } }
}

/// Input lines fed to a command, as if typed.
final class ScriptedLines: LineSource {
    private let lines: Mutex<[String]>
    init(_ lines: [String]) { self.lines = Mutex(lines) }
    func readLine() -> String? { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}

/// The outcome of one in-process healthctl run.
struct CommandOutcome {
    let exitCode: Int32
    let output: String
    let errors: String
}

/// Runs healthctl in-process with captured output, scripted input, and UTC dates.
func runHealthCtl(_ arguments: [String], input: [String] = []) async -> CommandOutcome {
    let output = CapturedText(), errors = CapturedText()
    let io = CommandIO(output: output, errors: errors, input: ScriptedLines(input),
                       usesStyling: false, timeZone: TimeZone(identifier: "UTC")!)
    let code = await CommandIO.$current.withValue(io) { await HealthCtl.execute(arguments) }
    return CommandOutcome(exitCode: code, output: output.value, errors: errors.value)
}

/// `runHealthCtl` with the arguments as the kernel passes them: bytes, not yet decoded.
func runHealthCtlRaw(_ arguments: [[UInt8]]) async -> CommandOutcome {
    let output = CapturedText(), errors = CapturedText()
    let io = CommandIO(output: output, errors: errors, input: ScriptedLines([]),
                       usesStyling: false, timeZone: TimeZone(identifier: "UTC")!)
    let code = await CommandIO.$current.withValue(io) { await HealthCtl.execute(rawArguments: arguments) }
    return CommandOutcome(exitCode: code, output: output.value, errors: errors.value)
}
