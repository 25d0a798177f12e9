import Foundation
import Glibc

/// The app never writes to the user's terminal itself. When health-sandbox's standard output or
/// error is a terminal, the app gets a pipe there instead, and health-sandbox stays outside the
/// app's namespaces as bubblewrap's parent and relays what comes through it: escaped and marked
/// with the app's id (`TerminalRelayText`), so the app can neither steer the terminal (retitle,
/// rewrite or hide lines, answer-back) nor print a line that passes for health-sandbox's,
/// healthctl's or the shell's — a fake consent or passcode prompt shows as the app's. A file or
/// pipe keeps the app's bytes unchanged: only terminals are relayed.
///
/// Standard output and error on one terminal share one pipe, so the app's lines stay in the
/// order it wrote them. The relay reads 4 KiB at a time and writes all of it before reading
/// again: an app that prints faster than the terminal shows blocks on its full pipe, and the
/// relay holds nothing but that chunk. It ends when no writer of the pipe is left: bubblewrap
/// and the app (every process of the app's pid namespace ends with it). A terminal that can no
/// longer be written (hung up) closes the pipe: the app then gets EPIPE, as it would writing to
/// a closed output. The relay then ends as bubblewrap did: the same exit code, or killed by the
/// same signal; a stop signal sent to the relay (Ctrl-C, `kill`, a hang-up) is passed on to
/// bubblewrap, which ends the app.
struct TerminalRelay {
    /// One pipe and the terminal its bytes go to.
    struct Channel {
        /// The app's end: dup2'd onto these of the app's standard descriptors (1, 2 or both).
        let targets: [Int32]
        let pipeWrite: Int32
        let pipeRead: Int32
        /// health-sandbox's own descriptor for the terminal (close-on-exec).
        let terminal: Int32
        var text: TerminalRelayText
    }

    struct Failure: Error, CustomStringConvertible {
        let step: String
        let errno: Int32
        var description: String { "cannot relay the app's output to the terminal: \(step): \(String(cString: strerror(errno)))" }
    }

    let channels: [Channel]

    /// Pipes for the standard descriptors (1, 2) that are terminals; nil when neither is.
    /// Every descriptor made here is close-on-exec: the app gets only the write ends, by dup2.
    static func prepare(appID: String) throws(Failure) -> TerminalRelay? {
        var channels: [Channel] = []
        for descriptor: Int32 in [1, 2] where isatty(descriptor) == 1 {
            if let index = channels.firstIndex(where: { Self.sameTerminal($0.terminal, descriptor) }) {
                let channel = channels[index]
                channels[index] = Channel(targets: channel.targets + [descriptor], pipeWrite: channel.pipeWrite,
                                          pipeRead: channel.pipeRead, terminal: channel.terminal, text: channel.text)
                continue
            }
            let terminal = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
            guard terminal >= 0 else { throw Failure(step: "dup \(descriptor)", errno: errno) }
            var ends: [Int32] = [-1, -1]
            // pipe2 is not exported to Swift; nothing in this process spawns between pipe and fcntl.
            guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
                let error = errno
                close(terminal)
                throw Failure(step: "pipe", errno: error)
            }
            channels.append(Channel(targets: [descriptor], pipeWrite: ends[1], pipeRead: ends[0], terminal: terminal,
                                    text: TerminalRelayText(appID: appID)))
        }
        return channels.isEmpty ? nil : TerminalRelay(channels: channels)
    }

    private static func sameTerminal(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat(), second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0 else { return false }
        return first.st_rdev == second.st_rdev
    }

    /// The app's standard descriptors become the pipes' write ends.
    func addRedirections(to actions: inout posix_spawn_file_actions_t) {
        for channel in channels {
            for target in channel.targets { posix_spawn_file_actions_adddup2(&actions, channel.pipeWrite, target) }
        }
    }

    /// Relays until every channel ends, waits for `child` (bubblewrap) and ends this process
    /// as it ended. `boundSocket`, the app's connection, is closed here first: only the app holds it.
    func run(child: pid_t, boundSocket: Int32) -> Never {
        Self.forwardStopSignals(to: child)
        close(boundSocket)
        for channel in channels { close(channel.pipeWrite) }
        var channels = channels
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !channels.isEmpty {
            var polled = channels.map { pollfd(fd: $0.pipeRead, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { break }
            var ended: [Int] = []
            for index in channels.indices where polled[index].revents != 0 {
                let count = read(channels[index].pipeRead, &buffer, buffer.count)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                let columns = Self.columns(of: channels[index].terminal)
                let shown = count > 0 ? channels[index].text.render(buffer[0 ..< count], terminalColumns: columns)
                    : channels[index].text.finish(terminalColumns: columns)
                if !Self.writeAll(shown, to: channels[index].terminal) || count <= 0 { ended.append(index) }
            }
            for index in ended.reversed() {
                close(channels[index].pipeRead)
                close(channels[index].terminal)
                channels.remove(at: index)
            }
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        if signal != 0 {
            // Die of it, as bubblewrap did, so the shell sees the same status.
            Glibc.signal(signal, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(signal)
        }
        exit(signal != 0 ? 128 + signal : (status >> 8) & 0xFF)
    }

    /// SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the relay go on to `child` (bubblewrap),
    /// which ends the app; the relay then ends as bubblewrap did.
    private static func forwardStopSignals(to child: pid_t) {
        relayedChild = child
        for stop in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            Glibc.signal(stop) { received in _ = kill(relayedChild, received) }
        }
    }

    /// The terminal's width in columns (TIOCGWINSZ), 0 if it does not say.
    private static func columns(of terminal: Int32) -> Int {
        var size = winsize()
        return ioctl(terminal, UInt(TIOCGWINSZ), &size) == 0 ? Int(size.ws_col) : 0
    }

    /// Writes all of `bytes`, waiting while the terminal is busy; false once it cannot be written.
    private static func writeAll(_ bytes: [UInt8], to terminal: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EAGAIN {
                var waiting = pollfd(fd: terminal, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
            } else if !(written < 0 && errno == EINTR) {
                return false
            }
        }
        return true
    }
}

/// The child the stop signals go to (a signal handler cannot capture context, so this is a
/// global); set before the handlers are installed.
nonisolated(unsafe) private var relayedChild: pid_t = 0
