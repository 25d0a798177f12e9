// leak-probe-client: the probing app of LeakProbeTests. It runs under health-sandbox, talks to
// healthd with HealthIPC's RPCClient directly (no SDK: nothing may tidy up, retry or reorder
// what the broker sends), and prints the raw bytes of every response so two worlds can be
// compared byte for byte.
//
// Commands on stdin, one a line, run in order; the test writes the next one after reading the
// previous one's `done`, so it can act in between (another app saves) and build the next request
// from earlier answers (an anchor):
//   unary METHOD PAYLOAD-HEX       (empty payload: "-")
//   stream METHOD PAYLOAD-HEX
//   timed-stream METHOD PAYLOAD-HEX   `stream`, and a `clock` line before its end
//   open NAME METHOD PAYLOAD-HEX   start a server stream that stays open (long-running queries)
//   close NAME                     cancel it
//   stall METHOD PAYLOAD-HEX       (first command only) send the request, never read a reply
//   flood METHOD PAYLOAD-HEX       (first command only) send it again and again, pipelined, until stdin ends
//   slow METHOD PAYLOAD-HEX        (first command only) send a stream request, read nothing until
//                                  the reply's first bytes wait unread ("done 1"), then on the
//                                  next line (any) read the whole stream ("item"s, "end"/"status", "done 2")
// Output, per command:
//   call N METHOD
//   reply HEX            a unary call's response payload
//   item HEX             each message of a stream, in order
//   clock START END      (timed-stream) when the request left and the answer ended, CLOCK_MONOTONIC ns
//   end                  a stream's clean end
//   status CODE HK MESSAGE-HEX   the call failed (gRPC code, HealthKit code or -1, message bytes)
//   done N
// and, whenever a message of an open stream arrives (between any of the above):
//   watch NAME item HEX | watch NAME end | watch NAME status …
import Foundation
import HealthIPC
import HealthWire
import Synchronization

let hexDigits = Array("0123456789abcdef".utf8)

/// Lower-case hex, two digits a byte ("-" for none), written into the string directly:
/// String(format:) per byte took seconds for a megabyte-sized answer.
func hex(_ bytes: some Collection<UInt8>) -> String {
    guard !bytes.isEmpty else { return "-" }
    return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
        var index = 0
        for byte in bytes {
            buffer[index] = hexDigits[Int(byte >> 4)]
            buffer[index + 1] = hexDigits[Int(byte & 0xF)]
            index += 2
        }
        return index
    }
}

func hexValue(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
}

func bytes(fromHex text: Substring) -> [UInt8]? {
    if text == "-" { return [] }
    let digits = text.utf8
    guard digits.count.isMultiple(of: 2) else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var high: UInt8?
    for character in digits {
        guard let value = hexValue(character) else { return nil }
        if let first = high {
            result.append(first << 4 | value)
            high = nil
        } else {
            high = value
        }
    }
    return result
}

func statusLine(_ error: any Error) -> String {
    guard let status = error as? RPCStatus else { return "status -1 -1 \(hex(Array("\(type(of: error))".utf8)))" }
    return "status \(status.code.rawValue) \(status.healthKitCode.map { String($0.rawValue) } ?? "-1") \(hex(Array(status.message.utf8)))"
}

/// Whole lines, written at once: the test reads them while the process runs, and open streams
/// print from other threads. Unbuffered writes, not stdio: flushing every stream (the only flush
/// that does not name `stdout`) would wait for stdin's lock, held by `readLine` until the next
/// command arrives.
let outputLock = Mutex(())
func emit(_ line: String) {
    outputLock.withLock { _ in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("leak-probe-client: \(message)\n".utf8))
    exit(2)
}

guard let descriptorText = ProcessInfo.processInfo.environment[LaunchEnvironment.socketDescriptorVariable],
      let descriptor = Int32(descriptorText) else {
    fail("run me under health-sandbox (\(LaunchEnvironment.socketDescriptorVariable) unset)")
}
/// Writes `METHOD PAYLOAD-HEX` (`fields[1]`, `fields[2]`) as call 1 by hand, with no client to
/// read the socket (`stall`, `slow`), and says `call 1 METHOD`.
func sendRequestByHand(_ fields: [String], command: String) {
    guard fields.count == 3, let payload = bytes(fromHex: Substring(fields[2])) else { fail("bad \(command) command") }
    let frame = FrameCodec.encode(.request(1, fields[1], payload))
    var offset = 0
    while offset < frame.count {
        let written = frame[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written > 0 else { fail("could not send the request: errno \(errno)") }
        offset += written
    }
    emit("call 1 \(fields[1])")
}

/// `stall METHOD PAYLOAD-HEX` as the first command: the app that starts a query and never reads
/// its reply (StalledClientEndToEndTests). The request is written by hand and no client is made,
/// so nothing ever reads the socket; the app stays connected until its input ends.
func stall(_ fields: [String]) -> Never {
    sendRequestByHand(fields, command: "stall")
    emit("done 1")
    while readLine() != nil {}
    close(descriptor)
    exit(0)
}

/// `flood METHOD PAYLOAD-HEX` as the first command: the app that sends the same request again
/// and again, pipelined under fresh call ids, as fast as healthd reads them, and reads and drops
/// every answer (BrokerMemoryBoundEndToEndTests). Prints `call 1 METHOD` and, once healthd
/// answered the first, how (`first ok`, or `first CODE HEALTHKIT-CODE` for a refusal) and
/// `done 1`; floods until its input ends.
final class FloodCount: Sendable {
    let answered = Atomic<Int>(0)
}

func flood(_ fields: [String]) -> Never {
    guard fields.count == 3, let payload = bytes(fromHex: Substring(fields[2])) else { fail("bad flood command") }
    let method = fields[1]
    let count = FloodCount()
    emit("call 1 \(method)")
    let reader = FrameConnection(fd: dup(descriptor))
    Thread {
        _ = reader.readFrames { frame in
            guard count.answered.add(1, ordering: .relaxed).newValue == 1 else { return }
            if let status = frame.status, status.code != .ok {
                emit("first \(status.code) \(status.healthKitCode.map { "\($0)" } ?? "-")")
            } else {
                emit("first ok")
            }
            emit("done 1")
        }
    }.start()
    Thread {
        var id: UInt64 = 1
        while true {
            let frame = FrameCodec.encode(.request(id, method, payload))
            id += 1
            var offset = 0
            while offset < frame.count {
                let written = frame[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }.start()
    while readLine() != nil {}
    emit("answered \(count.answered.load(ordering: .relaxed))")
    exit(0)
}

/// `slow METHOD PAYLOAD-HEX` as the first command: the app that starts a stream and stops reading
/// it (StalledStreamRevocationTests). The request is written by hand; once healthd's first reply
/// bytes are waiting in the socket (so the query has begun, and fills what the socket and healthd
/// buffer until it blocks) it says `done 1` and reads nothing until the next line of input. Then it
/// reads the call's every frame and prints them as `stream` does: `item HEX`, then `end` or `status`.
func slow(_ fields: [String]) -> Never {
    sendRequestByHand(fields, command: "slow")
    var waiting: Int32 = 0
    while ioctl(descriptor, UInt(FIONREAD), &waiting) == 0, waiting == 0 { usleep(1_000) }
    emit("done 1")
    guard readLine() != nil else { exit(0) }
    emit("call 2 read")
    let reader = FrameConnection(fd: descriptor)
    let ended = Mutex(false)
    _ = reader.readFrames { frame in
        guard frame.callID == 1, !ended.withLock({ $0 }) else { return }
        switch frame.kind {
        case .streamMessage:
            emit("item \(hex(frame.payload))")
        case .endOfStream, .response:
            if let status = frame.status, status.code != .ok {
                emit(statusLine(status))
            } else {
                emit("end")
            }
            ended.withLock { $0 = true }
            emit("done 2")
            shutdown(descriptor, Int32(SHUT_RDWR))
        case .request, .cancel:
            break
        }
    }
    while readLine() != nil {}
    exit(0)
}

/// CLOCK_MONOTONIC, in nanoseconds: one clock for every process of the machine.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

var firstLine = readLine()
if let first = firstLine, first.hasPrefix("slow ") {
    slow(first.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
}
if let first = firstLine, first.hasPrefix("stall ") {
    stall(first.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
}
if let first = firstLine, first.hasPrefix("flood ") {
    flood(first.split(separator: " ", omittingEmptySubsequences: true).map(String.init))
}
let client = RPCClient(fd: descriptor)
var openStreams: [String: Task<Void, Never>] = [:]
var number = 0
while let line = firstLine ?? readLine() {
    firstLine = nil
    number += 1
    let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    switch fields.first {
    case "unary" where fields.count == 3:
        guard let payload = bytes(fromHex: Substring(fields[2])) else { fail("bad payload on line \(number)") }
        emit("call \(number) \(fields[1])")
        do {
            emit("reply \(hex(try await client.unary(fields[1], payload)))")
        } catch {
            emit(statusLine(error))
        }
    case "stream" where fields.count == 3:
        guard let payload = bytes(fromHex: Substring(fields[2])) else { fail("bad payload on line \(number)") }
        emit("call \(number) \(fields[1])")
        do {
            for try await item in client.serverStream(fields[1], payload) { emit("item \(hex(item))") }
            emit("end")
        } catch {
            emit(statusLine(error))
        }
    case "timed-stream" where fields.count == 3:
        // `stream`, plus when the request left and the answer's end arrived, on the system's
        // monotonic clock (comparable with another process's): timing measured here does not
        // depend on how busy the test process driving this client is.
        guard let payload = bytes(fromHex: Substring(fields[2])) else { fail("bad payload on line \(number)") }
        emit("call \(number) \(fields[1])")
        let started = monotonicNanoseconds()
        do {
            for try await item in client.serverStream(fields[1], payload) { emit("item \(hex(item))") }
            emit("clock \(started) \(monotonicNanoseconds())")
            emit("end")
        } catch {
            emit("clock \(started) \(monotonicNanoseconds())")
            emit(statusLine(error))
        }
    case "open" where fields.count == 4:
        guard let payload = bytes(fromHex: Substring(fields[3])), openStreams[fields[1]] == nil else {
            fail("bad open on line \(number)")
        }
        let (name, method) = (fields[1], fields[2])
        emit("call \(number) \(method)")
        openStreams[name] = Task.detached {
            do {
                for try await item in client.serverStream(method, payload) { emit("watch \(name) item \(hex(item))") }
                // A cancelled stream ends too; only an end the broker chose is reported.
                if !Task.isCancelled { emit("watch \(name) end") }
            } catch {
                if !Task.isCancelled { emit("watch \(name) \(statusLine(error))") }
            }
        }
    case "close" where fields.count == 2:
        guard let stream = openStreams.removeValue(forKey: fields[1]) else { fail("close of a stream not open, line \(number)") }
        emit("call \(number) close")
        stream.cancel()
        await stream.value
    default:
        fail("bad command on line \(number)")
    }
    emit("done \(number)")
}
for stream in openStreams.values { stream.cancel() }
client.close()
