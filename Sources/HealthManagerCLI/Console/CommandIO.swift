public import Foundation
import Glibc

/// Where a command writes and reads. Commands never touch stdout/stdin directly: they go
/// through `CommandIO.current`, which tests replace (task-locally) with captured text and
/// scripted input, so every command runs in-process under test exactly as it runs for a user.
public struct CommandIO: Sendable {
    public let output: any TextSink
    public let errors: any TextSink
    public var input: any LineSource
    /// Bold table headers and prompts; off when stdout is not a terminal, or NO_COLOR is set.
    public let usesStyling: Bool
    /// The zone dates on the command line are read in and dates in tables are shown in.
    public var timeZone: TimeZone

    /// `output` and `errors` are wrapped in `TerminalSafeSink`: the one choke point that keeps
    /// what apps wrote from driving the terminal, whichever command prints it.
    public init(output: any TextSink, errors: any TextSink, input: any LineSource,
                usesStyling: Bool = false, timeZone: TimeZone = .current) {
        let styles = usesStyling ? [TerminalSafeSink.bold, TerminalSafeSink.reset] : []
        self.output = TerminalSafeSink(output, allowing: styles)
        self.errors = TerminalSafeSink(errors, allowing: usesStyling ? styles + ["\r", TerminalSafeSink.eraseLine] : [])
        self.input = input
        self.usesStyling = usesStyling
        self.timeZone = timeZone
    }

    /// The process's own stdout, stderr and stdin.
    public static var standard: CommandIO {
        let environment = ProcessInfo.processInfo.environment
        let styling = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        return CommandIO(output: FileDescriptorSink(fd: STDOUT_FILENO), errors: FileDescriptorSink(fd: STDERR_FILENO),
                         input: StandardInputLineSource(), usesStyling: styling)
    }

    @TaskLocal public static var current: CommandIO = .standard

    /// `text` in bold when styling is on.
    func emphasized(_ text: String) -> String {
        usesStyling ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }
}

/// Somewhere text goes: a file descriptor, or a buffer in a test.
public protocol TextSink: Sendable {
    func write(_ text: String)
}

extension TextSink {
    func writeLine(_ text: String = "") { write(text + "\n") }
}

/// Where interactive answers come from: stdin, or scripted lines in a test.
public protocol LineSource: Sendable {
    /// The next line without its newline, or nil at end of input.
    func readLine() -> String?
}

/// Writes straight to a descriptor, unbuffered, so a prompt is visible before the read that follows it.
struct FileDescriptorSink: TextSink {
    let fd: Int32

    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe: nothing useful is left to say, and nowhere to say it
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

struct StandardInputLineSource: LineSource {
    func readLine() -> String? { Swift.readLine(strippingNewline: true) }
}
