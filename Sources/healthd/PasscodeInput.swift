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
            return try firstLine(of: fd, named: "the passcode file \(file)")
        }
        if standardInput {
            return try firstLine(of: STDIN_FILENO, named: "standard input")
        }
        return nil
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
