/// Names a scored assessment type, as HealthKit's `HKScoredAssessmentTypeIdentifier` (iOS 18).
/// The raw values are HealthKit's strings (spec/healthkit/string_constants.tsv). Like the other
/// identifier structs, any string can be wrapped; `HKObjectType.scoredAssessmentType(forIdentifier:)`
/// says whether the type exists.
public struct HKScoredAssessmentTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Generalized Anxiety Disorder 7 (`HKScoredAssessmentTypeIdentifierGAD7`).
    public static let GAD7 = HKScoredAssessmentTypeIdentifier("HKScoredAssessmentTypeIdentifierGAD7")
    /// Patient Health Questionnaire 9 (`HKScoredAssessmentTypeIdentifierPHQ9`).
    public static let PHQ9 = HKScoredAssessmentTypeIdentifier("HKScoredAssessmentTypeIdentifierPHQ9")

    /// The identifiers HealthKit defines, in a stable order.
    public static let registered: [HKScoredAssessmentTypeIdentifier] = [.GAD7, .PHQ9]
}
