import COpenHealthProto
import HealthModel
import Testing
import TestSupport
@testable import HealthWire

/// `FrameCodec.encode` writes frames by hand (issue 17: one copy of a query's batch instead of
/// three); these check it against what protobuf-c packs for the same `Frame`, one field varied
/// at a time, each at its extremes.
@Suite(.timeLimit(.minutes(10))) struct FrameCodecBytesTests {
    /// What `FrameCodec.encode` wrote through protobuf-c before (and what any protobuf reader
    /// expects): the message packed by protobuf-c, behind its big-endian length.
    static func protobufC(_ frame: Frame) -> [UInt8] {
        let arena = WireArena()
        var message = Openhealth__V1__Frame.initialized()
        message.call_id = frame.callID
        message.method = arena.string(frame.method)
        message.kind = Openhealth__V1__FrameKind(rawValue: UInt32(frame.kind.rawValue))
        message.payload = arena.bytes(frame.payload)
        if let status = frame.status {
            message.status = arena.message { (wire: inout Openhealth__V1__Status) in
                wire.code = status.code.rawValue
                wire.message = arena.string(status.message)
                wire.healthkit_code = Int32(status.healthKitCode?.rawValue ?? 0)
            }
        }
        let body = ProtobufCodec.encode(message)
        return FrameReader.prefix(forBodyLength: body.count) + body
    }

    static let base = Frame(callID: 7, method: "/openhealth.v1.HealthStore/QuerySamples", kind: .streamMessage,
                            payload: [1, 2, 3], status: RPCStatus(.ok))

    /// A frame named by what it varies: a 1 MiB payload is not a test name.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let frame: Frame
        var testDescription: String { name }
    }

    static func varied(_ change: (inout Frame) -> Void) -> Frame {
        var frame = base
        change(&frame)
        return frame
    }

    static let frames: [Frame] = [
        base,
        // call id: none, one-byte and two-byte varints' edge, the largest
        varied { $0.callID = 0 }, varied { $0.callID = 127 }, varied { $0.callID = 128 }, varied { $0.callID = .max },
        // method: none, a NUL inside (spelled C0 80), non-ASCII, 200 bytes (a two-byte length)
        varied { $0.method = "" }, varied { $0.method = "/a\u{0}b" }, varied { $0.method = "/ü/€" },
        varied { $0.method = String(repeating: "m", count: 200) },
        // every kind
        varied { $0.kind = .request }, varied { $0.kind = .response }, varied { $0.kind = .endOfStream },
        varied { $0.kind = .cancel },
        // payload: none, one zero byte, 127 and 128 bytes, a 48 KiB batch, 1 MiB (a three-byte length)
        varied { $0.payload = [] }, varied { $0.payload = [0] },
        varied { $0.payload = [UInt8](repeating: 0xAB, count: 127) }, varied { $0.payload = [UInt8](repeating: 0xAB, count: 128) },
        varied { $0.payload = (0..<49_152).map { UInt8(truncatingIfNeeded: $0 &* 31) } },
        varied { $0.payload = [UInt8](repeating: 0xFF, count: 1 << 20) },
        // status: none, empty (code 0, no text), every code, a long text with a NUL, HealthKit codes
        varied { $0.status = nil },
        varied { $0.status = RPCStatus(.ok, "") },
        varied { $0.status = RPCStatus(.permissionDenied, String(repeating: "x", count: 300) + "\u{0}!") },
        varied { $0.status = RPCStatus(HKError(.errorAuthorizationDenied, "not allowed to share HeartRate")) },
    ] + StatusCode.allCases.map { code in varied { $0.status = RPCStatus(code, "why") } }
      + HKError.Code.allCases.map { code in varied { $0.status = RPCStatus(.failedPrecondition, "", healthKitCode: code) } }

    static let cases: [Case] = frames.enumerated().map { index, frame in
        Case(name: "frame \(index): call \(frame.callID), method \(frame.method.utf8.count) bytes, \(frame.kind), "
                 + "payload \(frame.payload.count) bytes, status \(frame.status.map { "\($0.code) \($0.message.utf8.count) bytes \($0.healthKitCode.map { "\($0.rawValue)" } ?? "-")" } ?? "none")",
             frame: frame)
    }

    @Test(arguments: cases) func sameBytesAsProtobufC(_ test: Case) {
        let written = FrameCodec.encode(test.frame)
        // Compared as a whole, but reported by length and first difference: a frame can be 1 MiB.
        let expected = Self.protobufC(test.frame)
        let firstDifference = zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(written.count == expected.count && firstDifference == nil,
                "\(written.count) bytes written, protobuf-c \(expected.count); first difference at \(firstDifference.map(String.init) ?? "none")")
    }
}
