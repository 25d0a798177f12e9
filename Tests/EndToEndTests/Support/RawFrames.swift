import Foundation
import Glibc
import HealthWire
import TestSupport

/// An attacker's raw connection read by hand: frames pipelined without a client, and the frames
/// healthd answers read only when the test asks (so everything else stays unread, stalling the
/// connection as the test means it to).
enum RawFrames {
    /// Sends `requests` (method, payload) as calls `firstID`, `firstID + 1`, … in one write.
    static func pipeline(_ requests: [(String, [UInt8])], firstID: UInt64 = 1, to fd: Int32) -> Bool {
        var bytes: [UInt8] = []
        for (index, (method, payload)) in requests.enumerated() {
            bytes += FrameCodec.encode(.request(firstID + UInt64(index), method, payload))
        }
        return sendAll(bytes, to: fd)
    }

    /// Reads frames from `fd` until the answer to call `callID` (a response or an end of stream)
    /// and returns it; nil when the connection ends or `timeout` passes first. For a connection
    /// with nothing else in flight: frames read past it are dropped.
    static func answer(to callID: UInt64, on fd: Int32, timeout: TimeInterval = 60) throws -> Frame? {
        try firstFrame(on: fd, timeout: timeout) { $0.callID == callID && ($0.kind == .response || $0.kind == .endOfStream) }
    }

    /// Reads frames from `fd` until one fails a call (a status other than OK), and returns it;
    /// nil when the connection ends, a frame does not decode or `timeout` passes first (a hang
    /// guard). Other frames (answers, stream messages) are read and dropped.
    static func firstRefusal(on fd: Int32, timeout: TimeInterval = 60) -> Frame? {
        (try? firstFrame(on: fd, timeout: timeout) { ($0.status?.code ?? .ok) != .ok }) ?? nil
    }

    /// The first frame read from `fd` that `wanted` accepts, dropping the others; nil when the
    /// connection ends or `timeout` passes first; throws when a frame does not decode.
    private static func firstFrame(on fd: Int32, timeout: TimeInterval, where wanted: (Frame) -> Bool) throws -> Frame? {
        var reader = FrameReader()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { return nil }
            guard entry.revents != 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            guard count > 0 else { return nil }
            for body in try reader.consume(buffer[0..<count]) {
                let frame = try FrameCodec.decode(body)
                if wanted(frame) { return frame }
            }
        }
        return nil
    }
}
