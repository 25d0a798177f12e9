import COpenHealthProto

/// medications.proto `MedicationArchiveRequest`: the user moves the medication with this concept
/// identifier into the archive (`archived`) or out of it (`healthctl medications archive`).
public struct MedicationArchiveRequest: WireMessage, Equatable {
    public var conceptIdentifier: String
    public var archived: Bool

    public init(conceptIdentifier: String, archived: Bool) {
        self.conceptIdentifier = conceptIdentifier
        self.archived = archived
    }

    public init(wire bytes: [UInt8]) throws {
        (conceptIdentifier, archived) = try ProtobufCodec.withDecoded(Openhealth__V1__MedicationArchiveRequest.self, from: bytes) { wire in
            (WireRead.string(wire.concept_identifier), wire.archived != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__MedicationArchiveRequest.initialized()
        wire.concept_identifier = arena.string(conceptIdentifier)
        wire.archived = archived ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
