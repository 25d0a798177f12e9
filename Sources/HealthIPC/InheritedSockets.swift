import Glibc

/// Listening sockets handed over by a service manager (systemd's socket activation protocol,
/// sd_listen_fds(3)): `LISTEN_PID` names the process they are for, `LISTEN_FDS` how many there
/// are (from fd 3 on), `LISTEN_FDNAMES` a name for each, separated by colons.
///
/// Parsing only: what each socket must be (its path, its mode) is decided by the caller.
public enum InheritedSockets {
    /// The first descriptor passed (SD_LISTEN_FDS_START).
    public static let firstDescriptor: Int32 = 3
    /// More than any service of ours is given; a larger count is a misconfigured unit.
    public static let maximumCount = 16

    /// A socket as the environment describes it.
    public struct Entry: Equatable, Sendable {
        public let name: String
        public let fd: Int32

        public init(name: String, fd: Int32) {
            self.name = name
            self.fd = fd
        }
    }

    /// Why the environment's description of inherited sockets cannot be used.
    public struct Malformed: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The sockets passed to process `pid`; nil when none were (no `LISTEN_FDS`, or they were
    /// meant for another process, like a parent that kept its environment).
    public static func parse(_ environment: [String: String], pid: Int32) throws(Malformed) -> [Entry]? {
        guard let countText = environment["LISTEN_FDS"] else { return nil }
        guard let pidText = environment["LISTEN_PID"], let listenPID = Int32(pidText), listenPID > 0 else {
            throw Malformed(description: "LISTEN_FDS is set but LISTEN_PID is missing or not a process id ('\(environment["LISTEN_PID"] ?? "")')")
        }
        guard listenPID == pid else { return nil }
        guard let count = Int(countText), (1...maximumCount).contains(count) else {
            throw Malformed(description: "LISTEN_FDS must be a number from 1 to \(maximumCount), got '\(countText.prefix(32))'")
        }
        // Without names the sockets cannot be told apart, and guessing by order would serve the
        // manager's methods on whichever socket came first.
        guard let namesText = environment["LISTEN_FDNAMES"], !namesText.isEmpty else {
            throw Malformed(description: "LISTEN_FDNAMES is missing: name each socket (FileDescriptorName= in the .socket unit, --fdname with systemd-socket-activate)")
        }
        let names = namesText.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard names.count == count else {
            throw Malformed(description: "LISTEN_FDNAMES names \(names.count) sockets but LISTEN_FDS passes \(count)")
        }
        return names.enumerated().map { Entry(name: $0.element, fd: firstDescriptor + Int32($0.offset)) }
    }

    /// What a descriptor is, as far as a listening Unix socket goes.
    public struct Listener: Equatable, Sendable {
        /// The path it is bound to ("" for an unbound or abstract socket).
        public let path: String
        /// The permission bits of the file at `path` (nil when there is no such file).
        public let mode: UInt32?

        public init(path: String, mode: UInt32?) {
            self.path = path
            self.mode = mode
        }
    }

    /// Why an inherited descriptor is not a listening `AF_UNIX` stream socket.
    public struct NotAListener: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Checks that `fd` is a listening `AF_UNIX` stream socket bound to a path and returns that
    /// path and the file's mode; marks it close-on-exec.
    public static func inspect(_ fd: Int32) throws(NotAListener) -> Listener {
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard let domain = option(SO_DOMAIN) else {
            throw NotAListener(description: "fd \(fd) is not a socket (\(String(cString: strerror(errno))))")
        }
        guard domain == AF_UNIX else { throw NotAListener(description: "fd \(fd) is not a Unix socket (address family \(domain))") }
        guard option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
            throw NotAListener(description: "fd \(fd) is not a stream socket (ListenStream= in the .socket unit)")
        }
        guard option(SO_ACCEPTCONN) == 1 else { throw NotAListener(description: "fd \(fd) is not listening") }
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw NotAListener(description: "fd \(fd): getsockname failed (\(String(cString: strerror(errno))))") }
        let pathCapacity = Int(length) - MemoryLayout<sa_family_t>.size  // sun_path follows sun_family
        let path = withUnsafeBytes(of: &address.sun_path) { raw -> String in
            let bytes = raw.prefix(max(0, min(pathCapacity, raw.count)))
            // An abstract socket starts with a NUL: no file, no mode to check — refused by the caller.
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var info = stat()
        let mode: UInt32? = !path.isEmpty && lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
            ? UInt32(info.st_mode & 0o7777) : nil
        return Listener(path: path, mode: mode)
    }
}
