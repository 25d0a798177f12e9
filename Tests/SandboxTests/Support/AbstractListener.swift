import Foundation
import Glibc

/// An abstract Unix socket listening outside the sandbox, for an app inside to reach for.
final class AbstractListener {
    let name: String
    private let fd: Int32

    init() throws {
        name = "ohk-escape-outside-" + UUID().uuidString.prefix(8)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0 // abstract: a leading NUL, no file
            for (index, byte) in bytes.enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard fd >= 0, bound == 0, listen(fd, 4) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(fd) }
}
