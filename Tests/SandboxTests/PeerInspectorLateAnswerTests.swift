import CSandbox
import Foundation
import Glibc
import Testing

/// The asking side of healthd's peer inspector (`ohk_peer_inspect`) against a socket the test
/// answers itself, so it can answer late. A late answer must never be taken for the next
/// question's (that would name another peer's executable), and one slow answer must not leave
/// every later connection unidentified (refused) until healthd restarts: questions are numbered,
/// the asker that times out gets an error, and the next asker drops the late answer and takes its
/// own. Before numbering, the channel was shut after the first timeout.
@Suite(.timeLimit(.minutes(10))) struct PeerInspectorLateAnswerTests {
    /// Reads one question; returns its number.
    private static func question(on fd: Int32) -> UInt64? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 8 else { return nil }
        return buffer.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    /// Answers question `number` as if the peer ran `executable`.
    private static func answer(_ number: UInt64, executable: String, on fd: Int32) {
        var facts = ohk_peer_facts()
        facts.question = number
        facts.pid = 4242
        facts.confined = 1
        // The executable follows `confined` (Swift does not import a char array this long).
        let start = (MemoryLayout<ohk_peer_facts>.offset(of: \.confined) ?? 16) + 4
        withUnsafeMutableBytes(of: &facts) { bytes in
            for (index, byte) in executable.utf8.prefix(4_096).enumerated() { bytes[start + index] = byte }
        }
        _ = withUnsafeBytes(of: &facts) { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    @Test func aLateAnswerIsDroppedAndTheNextQuestionIsAnswered() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        var limit = timeval(tv_sec: 0, tv_usec: 200_000)
        try #require(setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0)
        let asker = pair[0], inspector = pair[1]

        // First question: nobody answers in time.
        var facts = ohk_peer_facts()
        let first = ohk_peer_inspect(asker, -1, 4242, &facts)
        let firstErrno = errno
        #expect(first == -1 && (firstErrno == EAGAIN || firstErrno == EWOULDBLOCK), "errno \(firstErrno)")
        let firstNumber = try #require(Self.question(on: inspector))
        // Its answer arrives late, after the asker gave up.
        Self.answer(firstNumber, executable: "/usr/bin/first-peer", on: inspector)

        // Second question: the late answer is waiting; the asker must drop it and take its own.
        let answering = Thread {
            guard let number = Self.question(on: inspector) else { return }
            Self.answer(number, executable: "/usr/bin/second-peer", on: inspector)
        }
        answering.start()
        facts = ohk_peer_facts()
        let second = ohk_peer_inspect(asker, -1, 4242, &facts)
        #expect(second == 0, "errno \(errno)")
        #expect(facts.question > firstNumber)
        #expect(String(cString: ohk_peer_facts_executable(&facts)) == "/usr/bin/second-peer")
    }

    @Test func anInspectorThatIsGoneAnswersEPIPE() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        close(pair[1])
        var facts = ohk_peer_facts()
        #expect(ohk_peer_inspect(pair[0], -1, 1, &facts) == -1)
        #expect(errno == EPIPE)
    }
}
