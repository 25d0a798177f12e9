import Glibc
import HealthWire

/// Reads passcodes as bytes, never as strings, so every copy can be erased. On a terminal it
/// prompts on stderr and turns echo off while the user types; otherwise (a pipe, a file) it
/// reads one passcode per line from stdin, without prompting.
///
/// Reads stdin with read(2) byte by byte, so nothing beyond the current line is consumed (the
/// next line is the next passcode) and no stdio buffer keeps a copy.
struct PasscodeReader {
    static let maximumLength = 1024
    let fd: Int32 = STDIN_FILENO

    var isTerminal: Bool { isatty(fd) == 1 }

    /// One passcode; `what` names it in the prompt and in errors ("the new passcode").
    func read(_ what: String) throws(HealthCtlError) -> [UInt8] {
        guard isTerminal else { return try readLine(what) }
        CommandIO.current.errors.write("Enter \(what): ")
        let echo = TerminalEcho(fd: fd)
        echo.turnOff()
        defer {
            echo.restore()
            CommandIO.current.errors.writeLine()
        }
        return try readLine(what)
    }

    /// A new passcode, typed twice; refuses an empty one or two that differ.
    func readNew(_ what: String) throws(HealthCtlError) -> [UInt8] {
        var first = try read(what)
        guard !first.isEmpty else { throw .passcodeRejected(reason: "\(what) is empty") }
        var confirmation = try read("\(what) again")
        defer { PasscodeCredentials.erase(&confirmation) }
        guard first == confirmation else {
            PasscodeCredentials.erase(&first)
            throw .passcodeRejected(reason: "the two entries of \(what) differ")
        }
        return first
    }

    private func readLine(_ what: String) throws(HealthCtlError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.maximumLength + 1)
        defer { PasscodeCredentials.erase(&buffer) }
        var length = 0
        var ended = false
        while length < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + length, 1) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .passcodeNotRead(what: what, reason: String(cString: strerror(errno))) }
            if n == 0 {
                ended = true
                break
            }
            if buffer[length] == UInt8(ascii: "\n") { break }
            length += 1
        }
        if ended && length == 0 { throw .passcodeNotRead(what: what, reason: "the input ended") }
        guard length <= Self.maximumLength else {
            throw .passcodeNotRead(what: what, reason: "longer than \(Self.maximumLength) bytes")
        }
        if length > 0 && buffer[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        return Array(buffer[0..<length])
    }
}

/// Terminal echo switched off for a passcode and back on afterwards, also when the user
/// interrupts with Ctrl-C: the SIGINT handler restores the saved settings (tcsetattr is
/// async-signal-safe) before the process exits as interrupted.
final class TerminalEcho {
    private let fd: Int32
    private var saved = termios()
    private var changed = false

    init(fd: Int32) { self.fd = fd }

    func turnOff() {
        guard tcgetattr(fd, &saved) == 0 else { return }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        interruptedTerminal = (fd, saved)
        signal(SIGINT) { _ in
            if var (fd, settings) = interruptedTerminal { tcsetattr(fd, TCSAFLUSH, &settings) }
            _exit(130)
        }
        changed = tcsetattr(fd, TCSAFLUSH, &quiet) == 0
    }

    func restore() {
        guard changed else { return }
        tcsetattr(fd, TCSAFLUSH, &saved)
        signal(SIGINT, SIG_DFL)
        interruptedTerminal = nil
        changed = false
    }
}

/// What the SIGINT handler restores; set only while echo is off (a signal handler cannot
/// capture context, so this is a global).
nonisolated(unsafe) private var interruptedTerminal: (Int32, termios)?
