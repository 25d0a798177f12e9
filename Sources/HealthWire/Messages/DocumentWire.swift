import COpenHealthProto
import Foundation
import HealthModel

/// documents.proto `Document`: a document sample's bytes inside `Sample`. The bytes are copied,
/// never looked into: parsing them is the SDK's job (SECURITY.md, "CDA documents").
enum DocumentWire {
    static func build(_ value: DocumentValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Document> {
        arena.message { (wire: inout Openhealth__V1__Document) in
            wire.data = arena.bytes([UInt8](value.data))
        }
    }

    /// A document larger than `DocumentRules.maximumBytes` is refused here, before it is copied;
    /// the validator refuses an empty one with a message that names the sample.
    static func read(_ wire: Openhealth__V1__Document) throws(WireDecodeError) -> DocumentValue {
        guard wire.data.len <= DocumentRules.maximumBytes else {
            throw .invalidField("a document of \(wire.data.len) bytes; documents may be at most \(DocumentRules.maximumBytes) bytes")
        }
        return DocumentValue(data: Data(WireRead.bytes(wire.data)))
    }
}
