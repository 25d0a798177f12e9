import HealthModel
import Testing
import TestSupport
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct FrameCodecTests {
    @Test func roundTripsEveryKindWithStatus() throws {
        let frames: [Frame] = [
            .request(42, "/openhealth.v1.HealthStore/QuerySamples", [0, 1, 2]),
            .response(42, [9, 9]),
            Frame(callID: 3, kind: .streamMessage, payload: [5]),
            .failure(3, RPCStatus(HKError(.errorAuthorizationDenied, "not allowed to share HeartRate")), streaming: true),
            Frame(callID: 4, kind: .cancel),
        ]
        for frame in frames {
            var reader = FrameReader()
            let bodies = try reader.consume(FrameCodec.encode(frame))
            #expect(try FrameCodec.decode(bodies[0]) == frame)
        }
    }

    @Test func carriesTheHealthKitCode() throws {
        let frame = Frame.failure(1, RPCStatus(HKError(.errorAuthorizationNotDetermined, "ask first")), streaming: false)
        let decoded = try FrameCodec.decode(Array(FrameCodec.encode(frame).dropFirst(4)))
        #expect(decoded.status?.code == .permissionDenied)
        #expect(decoded.status?.asHKError.code == .errorAuthorizationNotDetermined)
    }

    @Test func garbageIsMalformedNotACrash() {
        var generator = SplitMix64(seed: 7)
        for length in 1...300 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            // Any outcome but a crash is fine; most random inputs are refused.
            _ = try? FrameCodec.decode(bytes)
        }
        #expect(throws: WireDecodeError.self) { try FrameCodec.decode([0xFF, 0xFF, 0xFF]) }
    }

    @Test func undefinedKindIsRefused() throws {
        // field 3 (kind), varint 99
        #expect(throws: WireDecodeError.invalidField("frame kind 99 is not defined")) {
            try FrameCodec.decode([0x08, 0x01, 0x18, 99])
        }
    }
}
