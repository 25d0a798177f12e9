/// What HealthKit's `HKCDADocument` shows of a CDA document besides its bytes: the header's
/// title and the patient's, author's and custodian's names. Each is "" when the document has none
/// (Apple's properties are non-optional strings).
public struct CDADocumentFields: Hashable, Sendable {
    /// `/ClinicalDocument/title`.
    public var title: String
    /// `/ClinicalDocument/recordTarget/patientRole/patient/name` (the first record target).
    public var patientName: String
    /// `/ClinicalDocument/author/assignedAuthor/assignedPerson/name` (the first author).
    public var authorName: String
    /// `/ClinicalDocument/custodian/assignedCustodian/representedCustodianOrganization/name`.
    public var custodianName: String

    public init(title: String = "", patientName: String = "", authorName: String = "", custodianName: String = "") {
        self.title = title
        self.patientName = patientName
        self.authorName = authorName
        self.custodianName = custodianName
    }

    /// Sets the field at `index` of `CDADocumentReader.fieldPaths`.
    mutating func set(_ index: Int, to value: String) {
        switch index {
        case 0: title = value
        case 1: patientName = value
        case 2: authorName = value
        default: custodianName = value
        }
    }
}
