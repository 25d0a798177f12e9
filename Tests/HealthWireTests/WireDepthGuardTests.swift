import COpenHealthProto
import Testing
@testable import HealthWire

@Suite struct WireDepthGuardTests {
    /// A Predicate nested `depth` levels through CompoundPredicate.operands (hand-serialized so the
    /// test does not depend on the encoder it checks).
    func nestedPredicate(depth: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 1..<depth {
            // CompoundPredicate { operands(2) = <bytes> } inside Predicate { compound(4) = <...> }
            let compound: [UInt8] = [0x12] + varint(bytes.count) + bytes
            bytes = [0x22] + varint(compound.count) + compound
        }
        return bytes
    }

    func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(value)
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            out.append(byte)
        } while value != 0
        return out
    }

    @Test func acceptsNestingWithinTheLimit() throws {
        let bytes = nestedPredicate(depth: 8)
        try WireDepthGuard.check(bytes, descriptor: Openhealth__V1__Predicate.descriptor)
        let depth = try ProtobufCodec.withDecoded(Openhealth__V1__Predicate.self, from: bytes) { predicate in
            var depth = 1
            var node = predicate
            while let compound = node.compound?.pointee, compound.n_operands == 1, let next = compound.operands[0] {
                node = next.pointee
                depth += 2
            }
            return depth
        }
        #expect(depth >= 8)
    }

    @Test func refusesDeepNestingBeforeProtobufCRecurses() {
        // Deep enough nesting would overflow protobuf-c's recursive decoder's stack.
        let bytes = nestedPredicate(depth: 5_000)
        #expect(throws: WireDecodeError.nestedTooDeep(limit: WireLimits.maxMessageDepth)) {
            try ProtobufCodec.withDecoded(Openhealth__V1__Predicate.self, from: bytes) { _ in () }
        }
    }

    @Test func truncatedLengthIsMalformed() {
        #expect(throws: WireDecodeError.self) {
            try WireDepthGuard.check([0x22, 0x05, 0x12], descriptor: Openhealth__V1__Predicate.descriptor)
        }
    }
}
