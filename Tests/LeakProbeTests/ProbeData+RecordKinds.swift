import Foundation
import HealthModel
import HealthWire
import TestSupport

/// The value kinds with their own side tables and read rules: audiograms (ordinary read
/// permission), CDA documents (the type's read permission, then the user's consent per document:
/// `ProbeWorld+Documents`), clinical records (read needs the health-records entitlement and
/// a grant; they arrive only by import) and vision prescriptions (read per object). The hidden
/// app saves one of each, and the user imports clinical records, in the hidden world only.
extension ProbeData {
    static let audiogram = HKDataTypeIdentifierAudiogram
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let allergy = HKClinicalTypeIdentifier.allergyRecord.rawValue
    static let labResult = HKClinicalTypeIdentifier.labResultRecord.rawValue
    /// Clinical types are read-only for apps: read grants only, never share.
    static let clinicalTypes = [allergy, labResult]
    /// Read per object (`ReadScope.ownAndGrantedObjects`): apps may save it, but no type-wide
    /// read grant exists; the probing apps get per-object grants instead (`ProbeWorld`).
    static let perObjectTypes = [vision]

    /// The manifest entitlement clinical reads need (Apple's `com.apple.developer.healthkit.access`).
    static let healthRecordsEntitlement = ["com.apple.developer.healthkit.access": ["health-records"]]

    static let hiddenAudiogram = SampleRecord(
        uuid: UUID(), typeIdentifier: audiogram, startDate: time(3), endDate: time(8),
        value: .audiogram(AudiogramValue(points: [
            AudiogramValue.Point(frequency: 1000, tests: [AudiogramValue.Test(sensitivity: 20, side: 0), AudiogramValue.Test(sensitivity: 25, side: 1)]),
            AudiogramValue.Point(frequency: 4000, tests: [AudiogramValue.Test(sensitivity: 45, side: 0)]),
        ])))

    /// Three documents, so a CDA query (sent in batches of 2) needs two batches in the hidden world.
    static let hiddenDocuments = (0..<3).map { index in
        SampleRecord(uuid: UUID(), typeIdentifier: cda, startDate: time(20 + index), endDate: time(20 + index),
                     value: .document(DocumentValue(data: Data("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>visit \(index)</title></ClinicalDocument>".utf8))))
    }

    static func prescription(_ sphere: Double, minute: Int) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: vision, startDate: time(minute), endDate: time(minute),
                     value: .visionPrescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: true,
                                                                        expirationDate: time(minute + 60 * 24 * 365),
                                                                        rightEye: LensSpecificationValue(sphere: sphere),
                                                                        leftEye: LensSpecificationValue(sphere: sphere + 0.25))))
    }

    /// The hidden app's audiogram, documents and prescription; then the user's import of clinical
    /// records (an allergy and a lab Observation) from an Apple Health export.
    static func saveHiddenRecordKinds(through session: ProbeSession, importingInto broker: BrokerProcess,
                                      into hidden: inout HiddenObjects) async throws {
        hidden.audiogram = try await save([hiddenAudiogram], through: session)[0]
        hidden.documents = try await save(hiddenDocuments, through: session)
        hidden.prescription = try await save([prescription(-2.25, minute: 40)], through: session)[0]
        let export = try ProbeClinicalExport.write(in: broker.root + "/clinical-export")
        let imported = try await broker.healthctl(["import", export, "--characteristics", "no"])
        guard imported.status == 0, imported.stdout.contains(" 0 refused") else { throw CommandFailed(result: imported) }
        let listing = try await broker.healthctl(["samples", allergy, "--json"])
        let uuids = try listing.stdout.split(separator: "\n").compactMap { line -> UUID? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["uuid"] as? String).flatMap(UUID.init(uuidString:))
        }
        guard let record = uuids.first else { throw ProbeFailed(reason: "the imported allergy is not listed: \(listing)") }
        hidden.clinicalRecord = record
    }
}

/// A two-record Apple Health export of clinical records (the layout `healthctl import` reads:
/// `ClinicalRecord` elements, each resource a JSON file in `clinical-records/`).
enum ProbeClinicalExport {
    static let resources = [
        (type: ProbeData.allergy, id: "allergy-1", file: "AllergyIntolerance-allergy-1.json",
         json: #"{"resourceType":"AllergyIntolerance","id":"allergy-1","code":{"text":"Penicillin"}}"#),
        (type: ProbeData.labResult, id: "lab-1", file: "Observation-lab-1.json",
         json: #"{"resourceType":"Observation","id":"lab-1","code":{"text":"Hemoglobin A1c"}}"#),
    ]

    static func write(in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder + "/clinical-records", withIntermediateDirectories: true)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        for resource in resources {
            try Data(resource.json.utf8).write(to: URL(fileURLWithPath: folder + "/clinical-records/" + resource.file))
            xml += " <ClinicalRecord type=\"\(resource.type)\" identifier=\"\(resource.id)\" sourceName=\"Probe Hospital\""
                + " sourceURL=\"https://fhir.example.org/\(resource.id)\" fhirVersion=\"4.0.1\""
                + " receivedDate=\"2023-11-14 22:15:00 +0000\" resourceFilePath=\"/clinical-records/\(resource.file)\"/>\n"
        }
        xml += "</HealthData>\n"
        let path = folder + "/export.xml"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
