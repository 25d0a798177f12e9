import Foundation
import Glibc
import HealthIPC
import HealthWire
import Testing
import TestSupport

/// healthd refuses a frame whose length prefix exceeds the limit as soon as it reads the prefix
/// (DESIGN.md §4): it answers with a connection-level RESOURCE_EXHAUSTED status (call id 0) and
/// closes — while this client keeps its end open and sends nothing more, so only healthd's
/// refusal can end the wait. A healthd that checked the length only after reading (or
/// allocating) the body would wait for bytes that never come, and the read deadline fails it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct OversizeFrameEndToEndTests {
    static let readDeadlineSeconds = 3

    @Test(arguments: [WireLimits.maxFrameBytes + 1, Int(Int32.max)])
    func anOversizeLengthPrefixIsRefusedAtOnce(_ announced: Int) async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: "org.test.oversize", executable: Products.testProcessExecutable)
        // This test process connects by path, so the user opts it in to direct connections.
        try await broker.allowDirect("org.test.oversize")
        let fd = try UnixSocket.connect(path: broker.appSocket)
        defer { close(fd) }
        var timeout = timeval(tv_sec: Self.readDeadlineSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let prefix = FrameReader.prefix(forBodyLength: announced)
        #expect(prefix.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == prefix.count)

        // Everything healthd sends until it closes (or the deadline passes).
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var closedByHealthd = false
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count == 0 { closedByHealthd = true }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        #expect(closedByHealthd, "healthd neither refused nor closed within \(Self.readDeadlineSeconds) s (errno \(errno))")
        var reader = FrameReader()
        let frames = try reader.consume(received).map { try FrameCodec.decode($0) }
        #expect(frames.count == 1, "\(frames)")
        #expect(frames.first?.callID == 0)
        #expect(frames.first?.status?.code == .resourceExhausted, "\(String(describing: frames.first?.status))")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}
