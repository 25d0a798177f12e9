import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import TestSupport

/// The world of the stall suites (`StalledClientEndToEndTests`, `StalledStreamKindsEndToEndTests`,
/// `BoundedRereadEndToEndTests`): a writer saves CDA documents of 900 kB (12 of them: about 11 MB,
/// far past what a socket holds), and `reader` — this test process, connecting directly — may read
/// the type and, per document, every one of them (`DocumentOffers`).
///
/// A stall test is only as good as its stall: twice an answer these suites stall became empty or
/// small (session 16: per-document consent left the attackers no document), and the suites went on
/// passing while testing nothing. `waitUntilStalled` therefore refuses an answer that did not fill
/// the socket, and `expectReadPastStall` checks afterwards that healthd produced frames after the
/// stall — after whatever the test did while the reader held the answer up.
struct LargeDocumentWorld: Sendable {
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    static let documentBytes = 900_000

    let broker: BrokerProcess
    let reader: String

    /// A healthd started with `arguments`; `writer` (a sandboxed scripted app) saves `documents`
    /// CDA documents; `reader`, this test process, is installed, may connect directly, read the
    /// type and every document, and gets `readerGrants` (access, type) on top.
    init(arguments: [String], writer: String, reader: String, documents: Int = 12,
         readerGrants: [(String, String)] = []) async throws {
        broker = try BrokerProcess(extraArguments: arguments)
        self.reader = reader
        let writerID = try await broker.installClient(writer)
        try await broker.set(writerID, "share", Self.cda, allowed: true)
        let saved = try await broker.runApp(writerID, ["snippet", "cda-save", "\(documents)", "\(Self.documentBytes)"], timeout: 300)
        guard saved.okValue == "saved \(documents) Visit \(documents)" else { throw CommandFailed(result: saved) }
        try await broker.install(appID: reader, executable: Products.testProcessExecutable)
        try await broker.allowDirect(reader)
        try await broker.set(reader, "read", Self.cda, allowed: true)
        for (access, type) in readerGrants { try await broker.set(reader, access, type, allowed: true) }
        // Documents are read per document: the user allows the reader every one.
        try await DocumentOffers.allowAll(toDirectApp: reader, in: broker)
    }

    /// HKSampleQuery of every document: the reader's answer of about 11 MB.
    static var documentQuery: [UInt8] { SampleQuerySpec(typeIdentifier: cda).wireBytes() }

    /// Unread bytes below which an answer is taken not to have stalled. A stalled answer leaves the
    /// socket as full as the kernel lets healthd fill it (about 200 kB here); an answer small enough
    /// to end below this (the victims' few samples, an empty document list) never waits for its
    /// reader, so a test built on its stall would test nothing.
    static let minimumStallBytes = 64 << 10

    struct NotStalled: Error, CustomStringConvertible {
        let unread: Int
        var description: String {
            "the answer never stalled: healthd stopped at \(unread) unread bytes, fewer than \(LargeDocumentWorld.minimumStallBytes) — it fits the socket"
        }
    }

    /// Waits until healthd stops writing to `fd`, whose reader reads nothing (or a byte now and
    /// then): its unread bytes, at least `minimumStallBytes`, stop growing for half a second.
    /// Returns them; throws `NotStalled` when in 120 s they never reached `minimumStallBytes` (an
    /// answer that fits the socket: the case would stall nothing).
    static func waitUntilStalled(_ fd: Int32) async throws -> Int {
        try await waitUntilStalled(anyOf: [fd])
    }

    /// The same over several connections of one app running the same call: the most unread on
    /// any of them. Only one of an app's large queries runs at a time, and which one answers first
    /// (or is evicted with a short error) is the scheduler's business, not the test's.
    static func waitUntilStalled(anyOf descriptors: [Int32]) async throws -> Int {
        let until = Date().addingTimeInterval(120)
        var last = -1
        var steadySince = Date()
        while Date() < until {
            var most = 0
            for fd in descriptors {
                var unread: Int32 = 0
                if ioctl(fd, UInt(FIONREAD), &unread) == 0 { most = max(most, Int(unread)) }
            }
            if most > last {
                last = most
                steadySince = Date()
            } else if last >= minimumStallBytes, Date().timeIntervalSince(steadySince) >= 0.5 {
                return last
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw NotStalled(unread: max(last, 0))
    }

    /// One call's answer as read off a raw connection: its stream messages' payloads, where its
    /// deliveries ended (a long-running call's), how it ended, and how many bytes it took.
    struct ReadAnswer: Sendable {
        var payloads: [[UInt8]] = []
        /// The index in `payloads` of each delivery's last message.
        var deliveryEnds: [Int] = []
        var status: RPCStatus?
        var wireBytes = 0
        var largestFrame = 0

        /// The payloads of delivery `index`, or nil when it did not arrive.
        func delivery(_ index: Int) -> [[UInt8]]? {
            guard index < deliveryEnds.count else { return nil }
            let start = index == 0 ? 0 : deliveryEnds[index - 1] + 1
            return Array(payloads[start...deliveryEnds[index]])
        }
    }

    /// Reads call `callID`'s answer on `fd` to its end, or — a long-running call — until
    /// `deliveries` deliveries ended (`endsDelivery` tells a delivery's last message), or until
    /// `timeout` passes.
    static func readAnswer(_ fd: Int32, callID: UInt64 = 1, deliveries: Int? = nil,
                           endsDelivery: ([UInt8]) throws -> Bool = { _ in false },
                           timeout: TimeInterval = 120) throws -> ReadAnswer {
        var answer = ReadAnswer()
        var reader = FrameReader()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let until = Date().addingTimeInterval(timeout)
        while Date() < until {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { break }
            guard entry.revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            answer.wireBytes += count
            for body in try reader.consume(chunk[0..<count]) {
                answer.largestFrame = max(answer.largestFrame, body.count + FrameCodec.lengthPrefixBytes)
                let frame = try FrameCodec.decode(body)
                guard frame.callID == callID else { continue }
                switch frame.kind {
                case .streamMessage:
                    answer.payloads.append(frame.payload)
                    if try endsDelivery(frame.payload) {
                        answer.deliveryEnds.append(answer.payloads.count - 1)
                        if let deliveries, answer.deliveryEnds.count == deliveries { return answer }
                    }
                case .endOfStream, .response:
                    answer.status = frame.status
                    return answer
                default: continue
                }
            }
        }
        return answer
    }

    /// True when healthd sent `answer` on well past where it stalled (`unreadAtStall` bytes
    /// unread): more than the unread bytes plus two of its largest frames — the one it may have
    /// held ready when it stalled, and one more — arrived after. So at least one frame was checked
    /// (`StreamVisibility`) and read after the stall, i.e. after what the test did meanwhile.
    static func wentOnPastStall(_ answer: ReadAnswer, unreadAtStall: Int) -> Bool {
        answer.wireBytes > unreadAtStall + 2 * answer.largestFrame
    }
}
