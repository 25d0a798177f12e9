import Foundation

/// CDA documents for the document tests: one whose header names all four fields HealthKit's
/// `HKCDADocument` shows, in the CDA R2 header's places (HL7 CDA R2, section 4.2), and hostile ones.
enum CDADocumentSamples {
    static func header(title: String = "Discharge Summary", padding: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3">
         <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
         <title>\(title)</title>
         <recordTarget><patientRole><patient>
          <name><given>Jane</given> <given>Q</given><family>Doe</family></name>
         </patient></patientRole></recordTarget>
         <author><assignedAuthor><assignedPerson>
          <name><prefix>Dr.</prefix><given>Ada</given><family>Lovelace</family></name>
         </assignedPerson></assignedAuthor></author>
         <custodian><assignedCustodian><representedCustodianOrganization>
          <name>Good Health Clinic</name>
         </representedCustodianOrganization></assignedCustodian></custodian>
         <component><nonXMLBody><text>\(padding)</text></nonXMLBody></component>
        </ClinicalDocument>
        """
    }

    static let full = Data(header().utf8)

    /// A document of exactly `bytes` bytes (at least the header's own size).
    static func sized(_ bytes: Int) -> Data {
        let bare = header().utf8.count
        return Data(header(padding: String(repeating: "x", count: max(0, bytes - bare))).utf8)
    }

    /// "Billion laughs": ten levels of ten references, 10^9 "lol"s if expanded.
    static let billionLaughs: Data = {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE ClinicalDocument [\n <!ENTITY lol \"lol\">\n"
        var previous = "lol"
        for level in 1...9 {
            text += " <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
            previous = "lol\(level)"
        }
        text += "]>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>&\(previous);</title></ClinicalDocument>\n"
        return Data(text.utf8)
    }()

    /// An external entity that would read a local file into the title.
    static let externalEntity = Data("""
        <?xml version="1.0"?>
        <!DOCTYPE ClinicalDocument [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
        <ClinicalDocument xmlns="urn:hl7-org:v3"><title>&secret;</title></ClinicalDocument>
        """.utf8)
}
