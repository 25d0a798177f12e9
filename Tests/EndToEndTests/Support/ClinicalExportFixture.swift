import Foundation

/// A small Apple Health export holding clinical records as the Health app writes them
/// (healthkit11.dtd `ClinicalRecord`: type, identifier, sourceName, sourceURL, fhirVersion,
/// receivedDate, resourceFilePath), each resource a JSON file in `clinical-records/`: two
/// allergies (one R4, one DSTU2), a lab Observation and a lab DiagnosticReport from one
/// institution. The JSON keeps odd spacing, key order and non-ASCII text, which must come back
/// byte for byte.
enum ClinicalExportFixture {
    struct Resource {
        let type: String
        let identifier: String
        let fhirVersion: String
        let file: String
        let json: String
    }

    static let institution = "Example General Hospital"

    static let resources: [Resource] = [
        Resource(type: "HKClinicalTypeIdentifierAllergyRecord", identifier: "allergy-1", fhirVersion: "4.0.1",
                 file: "AllergyIntolerance-allergy-1.json",
                 json: #"{"resourceType": "AllergyIntolerance", "id":"allergy-1",  "code": {"text": "Penicillin — ünïcode"}, "criticality":"high"}"#),
        Resource(type: "HKClinicalTypeIdentifierAllergyRecord", identifier: "allergy-2", fhirVersion: "1.0.2",
                 file: "AllergyIntolerance-allergy-2.json",
                 json: #"{"id":"allergy-2","resourceType":"AllergyIntolerance","substance":{"coding":[{"display":"Peanuts"}]}}"#),
        Resource(type: "HKClinicalTypeIdentifierLabResultRecord", identifier: "lab-1", fhirVersion: "4.0.1",
                 file: "Observation-lab-1.json",
                 json: #"{"resourceType":"Observation","id":"lab-1","code":{"text":"Hemoglobin A1c"},"valueQuantity":{"value":5.4,"unit":"%"}}"#),
        Resource(type: "HKClinicalTypeIdentifierLabResultRecord", identifier: "report-1", fhirVersion: "4.0.1",
                 file: "DiagnosticReport-report-1.json",
                 json: #"{"resourceType":"DiagnosticReport","id":"report-1","code":{"text":"Lipid panel"}}"#),
    ]

    /// Writes export.xml and its clinical-records folder into `folder`; returns export.xml's path.
    static func write(in folder: String, resources: [Resource] = resources) throws -> String {
        try FileManager.default.createDirectory(atPath: folder + "/clinical-records", withIntermediateDirectories: true)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-05-02 09:00:00 +0200"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>

            """
        for resource in resources {
            try Data(resource.json.utf8).write(to: URL(fileURLWithPath: folder + "/clinical-records/" + resource.file))
            let resourceType = resource.file.split(separator: "-").first.map(String.init) ?? ""
            xml += """
                 <ClinicalRecord type="\(resource.type)" identifier="\(resource.identifier)" sourceName="\(institution)" \
                sourceURL="https://fhir.example.org/\(resourceType)/\(resource.identifier)" fhirVersion="\(resource.fhirVersion)" \
                receivedDate="2024-04-30 10:15:00 +0200" resourceFilePath="/clinical-records/\(resource.file)"/>

                """
        }
        xml += "</HealthData>\n"
        let path = folder + "/export.xml"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
