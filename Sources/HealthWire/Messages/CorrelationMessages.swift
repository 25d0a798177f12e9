import COpenHealthProto
public import HealthModel

/// CorrelationQueryRequest (proto/openhealth/v1/characteristics.proto). Sort and limit are not
/// part of it: an HKCorrelationQuery has neither.
extension CorrelationQuerySpec: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__CorrelationQueryRequest.self, from: bytes) { wire in
            var objectPredicates: [String: SamplePredicate] = [:]
            for entry in WireRead.messages(wire.sample_predicates, count: wire.n_sample_predicates) {
                let type = WireRead.string(entry.type)
                guard objectPredicates[type] == nil else {
                    throw WireDecodeError.invalidField("sample predicate for \(type.prefix(100)) appears twice")
                }
                objectPredicates[type] = try entry.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) }
                    ?? .and([])
            }
            return CorrelationQuerySpec(
                typeIdentifier: WireRead.string(wire.type),
                predicate: try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) },
                objectPredicates: objectPredicates)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__CorrelationQueryRequest.initialized()
        wire.type = arena.string(typeIdentifier)
        if let predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
        let entries = objectPredicates.sorted { $0.key < $1.key }.map { type, predicate in
            arena.message { (entry: inout Openhealth__V1__MemberPredicate) in
                entry.type = arena.string(type)
                entry.predicate = PredicateWire.build(predicate, in: arena)
            }
        }
        wire.n_sample_predicates = entries.count
        wire.sample_predicates = arena.messages(entries)
        return ProtobufCodec.encode(wire)
    }
}
