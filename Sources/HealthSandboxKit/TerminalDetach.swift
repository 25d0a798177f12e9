import Foundation
import Glibc

/// The app never reads the user's terminal. `bwrap --new-session` takes the app out of the
/// terminal's session, so job control no longer stops it when it reads in the background: an
/// app started with `&` would read whatever the user types next (a passcode for `healthctl
/// unlock`, a sudo password). So a terminal on standard input becomes /dev/null, and a terminal
/// on standard output or error — a shell opens the terminal once, read-write, for all three —
/// is opened again write-only (or becomes /dev/null if that fails). Pipes and files are kept
/// as they are: `health-sandbox run APP -- app < input` still works.
enum TerminalDetach {
    struct Failure: Error, CustomStringConvertible {
        let descriptor: Int32
        let errno: Int32
        var description: String { "cannot detach descriptor \(descriptor) from the terminal: \(String(cString: strerror(errno)))" }
    }

    static func apply() throws(Failure) {
        if isatty(0) == 1 { try replace(0, with: open("/dev/null", O_RDONLY | O_CLOEXEC)) }
        for descriptor: Int32 in [1, 2] where isatty(descriptor) == 1 && fcntl(descriptor, F_GETFL) & O_ACCMODE != O_WRONLY {
            // The magic link reopens the same terminal device with new flags: write-only, and
            // never as a controlling terminal.
            var writeOnly = open("/proc/self/fd/\(descriptor)", O_WRONLY | O_NOCTTY | O_CLOEXEC)
            if writeOnly < 0 { writeOnly = open("/dev/null", O_WRONLY | O_CLOEXEC) }
            try replace(descriptor, with: writeOnly)
        }
    }

    private static func replace(_ descriptor: Int32, with replacement: Int32) throws(Failure) {
        guard replacement >= 0 else { throw Failure(descriptor: descriptor, errno: errno) }
        defer { close(replacement) }
        guard dup2(replacement, descriptor) == descriptor else { throw Failure(descriptor: descriptor, errno: errno) }
    }
}
