public import Foundation
public import HealthModel

/// Clinical records: a `ClinicalRecord` element and its FHIR JSON become one sample holding the
/// resource as given, and a stored record becomes the element and file again (round trip).
extension ExportConversion {
    /// The sample for a clinical record whose resource file holds `resource`. The JSON must be
    /// an object whose `resourceType` is an `HKFHIRResourceType` and whose `id` is the element's
    /// `identifier`; otherwise it is refused naming the file. The source is the institution.
    public static func sample(_ clinical: ExportClinicalRecord, resource: Data) throws(ImportRefusal) -> ImportedSample {
        let file = String(clinical.resourceFilePath.drop { $0 == "/" })
        func refused(_ reason: String) -> ImportRefusal { ImportRefusal(type: clinical.type, reason: "\(file): \(reason)") }
        guard HKObjectType.clinicalType(forIdentifier: HKClinicalTypeIdentifier(clinical.type)) != nil else {
            throw ImportRefusal(type: clinical.type, reason: "not a clinical type identifier")
        }
        let json: FHIRResourceJSON
        do {
            json = try FHIRResourceJSON(resource)
        } catch {
            throw refused("the FHIR resource \(error.description)")
        }
        guard let resourceType = json.resourceType, FHIRResourceRules.resourceTypes.contains(resourceType) else {
            throw refused("the FHIR resource's resourceType is missing or not an HKFHIRResourceType")
        }
        guard json.id == clinical.identifier else {
            throw refused("the FHIR resource's id does not match the record's identifier")
        }
        let value = ClinicalRecordValue(displayName: json.displayName ?? resourceType, resourceType: resourceType,
                                        identifier: clinical.identifier, data: resource,
                                        sourceURL: clinical.sourceURL.flatMap { $0.isEmpty ? nil : $0 },
                                        fhirVersion: clinical.fhirVersion)
        // One record per institution, type and resource id: importing again adds nothing (a
        // resource changed under the same id keeps the first import, as any synced object would
        // at the same sync version).
        var metadata: [String: MetadataValue] = [:]
        let identity = [clinical.type, clinical.sourceName ?? "", resourceType, clinical.identifier]
        metadata[HKMetadataKeySyncIdentifier] = .string(syncPrefix + StableHash.hex(identity.joined(separator: "\u{1F}")))
        metadata[HKMetadataKeySyncVersion] = .number(1)
        let record = SampleRecord(uuid: placeholderUUID(), typeIdentifier: clinical.type, startDate: clinical.receivedDate,
                                  endDate: clinical.receivedDate, value: .clinicalRecord(value), metadata: metadata)
        return ImportedSample(record: record, sourceName: clinical.sourceName, sourceVersion: nil, routes: [])
    }

    /// The element and file written back for a stored clinical record: the resource goes to
    /// `clinical-records/<resourceType>-<id>.json`, the id made safe for a file name.
    public static func clinicalRecordElement(_ sample: SampleRecord, sourceName: String) -> (element: ExportClinicalRecord, data: Data)? {
        guard case let .clinicalRecord(value) = sample.value else { return nil }
        let path = "/\(AppleHealthExportFile.clinicalRecordsFolder)/\(value.resourceType)-\(fileNameID(value.identifier)).json"
        return (ExportClinicalRecord(type: sample.typeIdentifier, identifier: value.identifier, sourceName: sourceName,
                                     sourceURL: value.sourceURL ?? "", fhirVersion: value.fhirVersion,
                                     receivedDate: sample.startDate, resourceFilePath: path, line: 0), value.data)
    }

    /// A FHIR id as part of a file name: ASCII letters, digits, `-` and `.` kept, anything else
    /// `_`, at most 100 bytes. An id that had to change also gets 16 hex digits of its hash, so
    /// two ids that differ only where they were changed keep two files. (Letters of any script
    /// were kept before: an id of 64 four-byte letters, within FHIR's 256-byte bound, made a
    /// name over the 255 bytes a file name may have, and every later export failed.)
    static func fileNameID(_ identifier: String) -> String {
        let kept = String(identifier.unicodeScalars.prefix(100).map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == ".") ? Character(scalar) : "_"
        })
        return kept == identifier ? kept : kept + "-" + StableHash.hex(identifier).prefix(16)
    }
}
