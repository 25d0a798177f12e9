public import Foundation

/// A scored assessment type (GAD-7, PHQ-9), as HealthKit's `HKScoredAssessmentType`. Apps may
/// read and write both; the answers' rules are `ScoredAssessmentRules`.
public final class HKScoredAssessmentType: HKSampleType, @unchecked Sendable {
    init(identifier: HKScoredAssessmentTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// HealthKit's `HKScoredAssessmentType(.GAD7)`. Traps for an identifier HealthKit does not
    /// define, like HealthKit (and like `HKCorrelationType(_:)` here); use
    /// `HKObjectType.scoredAssessmentType(forIdentifier:)` for identifiers from outside.
    public convenience init(_ identifier: HKScoredAssessmentTypeIdentifier) {
        guard ObjectTypeRegistry.scoredAssessmentTypes[identifier] != nil else {
            preconditionFailure("'\(identifier.rawValue)' is not a scored assessment type identifier; "
                                + "use HKObjectType.scoredAssessmentType(forIdentifier:) for unchecked identifiers")
        }
        self.init(identifier: identifier)
    }
}
