import Glibc
import HealthIPC

/// `healthd.pid` in the socket folder while this healthd serves (DefaultPaths.runningMarker):
/// the launch agent reads its presence, without connecting, to know when to reconnect.
/// Written before confinement, removed before the process exits — before its connections
/// close, so an agent that sees its stream end already sees the marker gone.
struct RunningMarker {
    let path: String

    init(socketDirectory: String) throws(StartupFailure) {
        path = DefaultPaths.runningMarker(in: socketDirectory)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StartupFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let text = Array("\(getpid())\n".utf8)
        guard write(fd, text, text.count) == text.count else {
            throw StartupFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    func remove() {
        unlink(path)
    }
}
