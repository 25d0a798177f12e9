import Glibc
import Foundation
import HealthModel

/// The file an app attaches, read in this process (the app's own file: healthd never opens an
/// app's path), a chunk at a time. Opening says exactly what is wrong with the URL — not a file
/// URL, missing, a directory, unreadable — as `errorInvalidArgument` naming the path.
final class AttachmentFile {
    private let descriptor: Int32
    let size: Int
    private let path: String

    init(_ url: URL) throws(HKError) {
        guard url.isFileURL else {
            throw HKError(.errorInvalidArgument, "an attachment's URL must be a local file URL, not \(url.scheme ?? "a relative URL")")
        }
        path = url.path
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard opened >= 0 else { throw Self.failure(errno, path) }
        descriptor = opened
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw Self.failure(code, path)
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw HKError(.errorInvalidArgument, "the attachment's URL names a directory, not a file: \(path)")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw HKError(.errorInvalidArgument, "the attachment's URL names something other than a regular file: \(path)")
        }
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from where the last read ended; fewer only at the end of the file.
    func read(upTo count: Int) throws(HKError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return Glibc.read(descriptor, base + filled, count - filled)
            }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Self.failure(errno, path)
            }
            if got == 0 { break }
            filled += got
        }
        buffer.removeSubrange(filled...)
        return buffer
    }

    private static func failure(_ code: Int32, _ path: String) -> HKError {
        switch code {
        case ENOENT, ENOTDIR: HKError(.errorInvalidArgument, "the attachment's file does not exist: \(path)")
        case EACCES, EPERM: HKError(.errorInvalidArgument, "the attachment's file cannot be read (permission denied): \(path)")
        case EISDIR: HKError(.errorInvalidArgument, "the attachment's URL names a directory, not a file: \(path)")
        default: HKError(.errorInvalidArgument, "the attachment's file cannot be read (\(String(cString: strerror(code)))): \(path)")
        }
    }
}
