import COpenHealthProto
import Testing
import TestSupport
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct WireDepthGuardTests {
    /// A Predicate nested `depth` levels through CompoundPredicate.operands (hand-serialized so the
    /// test does not depend on the encoder it checks).
    func nestedPredicate(depth: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 1..<depth {
            // CompoundPredicate { operands(2) = <bytes> } inside Predicate { compound(4) = <...> }
            let compound: [UInt8] = [0x12] + ProtobufVarint.encode(bytes.count) + bytes
            bytes = [0x22] + ProtobufVarint.encode(compound.count) + compound
        }
        return bytes
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
