import Glibc
import HealthStore

/// The store's passcode as given to healthd at start: the first line of a file or of standard
/// input, read with read(2) into a buffer that is erased once the `Passcode` holds the bytes.
enum PasscodeInput {
    /// Plenty for any passcode; more means the wrong file was named.
    static let maximumLength = 1024

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// nil when neither source was asked for.
    static func read(file: String?, standardInput: Bool) throws -> Passcode? {
        if let file {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw Failure(description: "cannot read the passcode file \(file): \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            try checkPrivate(fd, named: file)
            return try firstLine(of: fd, named: "the passcode file \(file)")
        }
        if standardInput {
            return try firstLine(of: STDIN_FILENO, named: "standard input")
        }
        return nil
    }

    /// A passcode file others can read, or that another user owns (and so could rewrite), has
    /// already given the passcode away or lets someone choose it: refused, as ssh refuses such a
    /// key, naming the fix. systemd's credentials (`%d/passcode`) are 0400 and the user's.
    private static func checkPrivate(_ fd: Int32, named file: String) throws {
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw Failure(description: "cannot inspect the passcode file \(file): \(String(cString: strerror(errno)))")
        }
        guard status.st_uid == geteuid() else {
            throw Failure(description: "the passcode file \(file) belongs to uid \(status.st_uid), not to this user (uid \(geteuid())); "
                          + "keep it in a file of your own with mode 600")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw Failure(description: "the passcode file \(file) can be read or written by others (mode "
                          + String(status.st_mode & 0o777, radix: 8) + "); run chmod 600 \(file)")
        }
    }

    private static func firstLine(of fd: Int32, named source: String) throws -> Passcode {
        var buffer = [UInt8](repeating: 0, count: maximumLength + 1)
        defer { Passcode.erase(&buffer) }
        var length = 0
        // Byte by byte up to the newline, so nothing after the first line is consumed.
        while length < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + length, 1) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "cannot read the passcode from \(source): \(String(cString: strerror(errno)))") }
            if n == 0 || buffer[length] == UInt8(ascii: "\n") { break }
            length += 1
        }
        guard length <= maximumLength else {
            throw Failure(description: "the passcode in \(source) is longer than \(maximumLength) bytes")
        }
        if length > 0 && buffer[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        guard length > 0 else { throw Failure(description: "\(source) holds no passcode (its first line is empty)") }
        return buffer.withUnsafeBytes { Passcode(copying: UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }
}
