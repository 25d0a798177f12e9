import Glibc

/// Writes all of `bytes` to the socket `fd`, blocking while the peer does not read; false when
/// the peer closed or the send failed first. Tests that play a hostile or stalled client write
/// raw frames with it (never SIGPIPE: MSG_NOSIGNAL).
@discardableResult
public func sendAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written <= 0 { return false }
        offset += written
    }
    return true
}
