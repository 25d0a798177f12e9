/// A `ScoredAssessment` element (GAD-7, PHQ-9), OpenHealthKit's own: Apple's export DTDs have no
/// element for `HKScoredAssessment`, so this one is written in the style of `Record` — the
/// sample's header attributes and `answers`, the answers' raw values in question order as an
/// NMTOKENS list, with `MetadataEntry` children. The score and risk are not written: they are
/// derived from the answers (`ScoredAssessmentRules`), never stored.
public struct ExportScoredAssessment: Sendable, Equatable {
    public var header: ExportSampleHeader
    /// Space-separated `HKGAD7Assessment.Answer` / `HKPHQ9Assessment.Answer` raw values as written.
    public var answers: String
}
