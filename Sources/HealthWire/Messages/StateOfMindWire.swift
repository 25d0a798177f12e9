import COpenHealthProto
import HealthModel

/// types.proto `StateOfMind`: an `HKStateOfMind`'s value inside `Sample`.
enum StateOfMindWire {
    /// More labels or associations than HealthKit defines cannot be valid (each may appear once);
    /// refusing them here keeps the copy out of the reader, and the validator says why.
    static let listLimit = 64

    static func build(_ value: StateOfMindValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__StateOfMind> {
        arena.message { (wire: inout Openhealth__V1__StateOfMind) in
            wire.kind = Int64(value.kind)
            wire.valence = value.valence
            wire.n_labels = value.labels.count
            wire.labels = arena.array(value.labels.map(Int64.init))
            wire.n_associations = value.associations.count
            wire.associations = arena.array(value.associations.map(Int64.init))
        }
    }

    static func read(_ wire: Openhealth__V1__StateOfMind) throws(WireDecodeError) -> StateOfMindValue {
        guard let kind = Int(exactly: wire.kind) else { throw .invalidField("state of mind kind out of range") }
        return StateOfMindValue(kind: kind, valence: wire.valence,
                                labels: try list(wire.labels, count: wire.n_labels, "labels"),
                                associations: try list(wire.associations, count: wire.n_associations, "associations"))
    }

    private static func list(_ values: UnsafeMutablePointer<Int64>?, count: Int, _ name: String) throws(WireDecodeError) -> [Int] {
        guard count <= listLimit else { throw .invalidField("a state of mind holds at most \(listLimit) \(name)") }
        guard count > 0, let values else { return [] }
        var result: [Int] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let value = Int(exactly: values[index]) else { throw .invalidField("state of mind \(name) out of range") }
            result.append(value)
        }
        return result
    }
}
