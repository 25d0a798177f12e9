import COpenHealthProto
import Foundation
import HealthModel

/// clinical.proto `ClinicalRecord` (a clinical record sample's value inside `Sample`) and
/// `FhirResourcePredicate`. Sizes are bounded here before anything is copied; what the fields
/// must hold is the validator's rule (`FHIRResourceRules`), which names the field.
enum ClinicalRecordWire {
    static func build(_ value: ClinicalRecordValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__ClinicalRecord> {
        arena.message { (wire: inout Openhealth__V1__ClinicalRecord) in
            wire.display_name = arena.string(value.displayName)
            wire.resource_type = arena.string(value.resourceType)
            wire.resource_id = arena.string(value.identifier)
            wire.resource_data = arena.bytes(Array(value.data))
            wire.source_url = arena.string(value.sourceURL ?? "")
            wire.fhir_version = arena.string(value.fhirVersion)
        }
    }

    static func read(_ wire: Openhealth__V1__ClinicalRecord) throws(WireDecodeError) -> ClinicalRecordValue {
        guard wire.resource_data.len <= FHIRResourceRules.maxResourceBytes else {
            throw .invalidField("a clinical record's FHIR resource is \(wire.resource_data.len) bytes; at most \(FHIRResourceRules.maxResourceBytes) are stored")
        }
        let sourceURL = WireRead.string(wire.source_url)
        return ClinicalRecordValue(
            displayName: WireRead.string(wire.display_name), resourceType: WireRead.string(wire.resource_type),
            identifier: WireRead.string(wire.resource_id), data: Data(WireRead.bytes(wire.resource_data)),
            sourceURL: sourceURL.isEmpty ? nil : sourceURL, fhirVersion: WireRead.string(wire.fhir_version))
    }

    static func buildPredicate(resourceType: String, identifier: String?,
                               in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__FhirResourcePredicate> {
        arena.message { (node: inout Openhealth__V1__FhirResourcePredicate) in
            node.resource_type = arena.string(resourceType)
            node.has_resource_id = identifier == nil ? 0 : 1
            node.resource_id = arena.string(identifier ?? "")
        }
    }

    static func readPredicate(_ node: Openhealth__V1__FhirResourcePredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("FHIR resource predicate missing") }
        return .fhirResource(resourceType: WireRead.string(node.resource_type),
                             identifier: node.has_resource_id != 0 ? WireRead.string(node.resource_id) : nil)
    }
}
