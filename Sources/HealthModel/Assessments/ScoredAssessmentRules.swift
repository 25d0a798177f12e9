/// HealthKit's rules for GAD-7 and PHQ-9 answers, scores and risk bands, in one place: the
/// broker's validator, the SDK's `score`/`risk` and healthctl's display all ask here.
///
/// Answers (HKGAD7Assessment.h / HKPHQ9Assessment.h): notAtAll 0, severalDays 1,
/// moreThanHalfTheDays 2, nearlyEveryDay 3; PHQ-9 adds preferNotToAnswer 4, allowed only for
/// its 9th question (the self-harm question, which HealthKit makes optional) and scored 0.
/// The score is the sum of the answers' points (GAD-7 0…21, PHQ-9 0…27); the risk bands are
/// the instruments' published cut-offs, which Apple's Risk enums name.
public enum ScoredAssessmentRules {
    /// What the rules need to know about one instrument.
    public struct Instrument: Sendable {
        public let identifier: HKScoredAssessmentTypeIdentifier
        /// The name users know it by ("GAD-7").
        public let name: String
        public let questionCount: Int
        /// The raw values allowed for every question.
        public let answers: ClosedRange<Int>
        /// An extra raw value allowed only for the last question, worth 0 points (PHQ-9's
        /// preferNotToAnswer); nil when the instrument has none.
        public let optionalLastAnswer: Int?
        /// Each risk band's lowest score, in the Risk enum's order (raw values 1, 2, …).
        public let riskFloors: [Int]
        /// Apple's Risk case names, for display and export.
        public let riskNames: [String]
    }

    public static let gad7 = Instrument(
        identifier: .GAD7, name: "GAD-7", questionCount: 7, answers: 0...3, optionalLastAnswer: nil,
        riskFloors: [0, 5, 10, 15], riskNames: ["noneToMinimal", "mild", "moderate", "severe"])

    public static let phq9 = Instrument(
        identifier: .PHQ9, name: "PHQ-9", questionCount: 9, answers: 0...3, optionalLastAnswer: 4,
        riskFloors: [0, 5, 10, 15, 20], riskNames: ["noneToMinimal", "mild", "moderate", "moderatelySevere", "severe"])

    /// The instrument of a type identifier; nil for any other type.
    public static func instrument(_ typeIdentifier: String) -> Instrument? {
        switch typeIdentifier {
        case gad7.identifier.rawValue: gad7
        case phq9.identifier.rawValue: phq9
        default: nil
        }
    }

    /// Refuses answers HealthKit would refuse: the wrong number (HealthKit raises
    /// NSInvalidArgumentException in the initializer; here the save fails with
    /// errorInvalidArgument, which the app can handle) or a raw value the question does not allow.
    /// Messages name the question and the allowed values, never the answer given: the message
    /// is the app's own data, but keeping values out keeps it safe to surface anywhere.
    public static func check(_ value: ScoredAssessmentValue, of instrument: Instrument) throws(HKError) {
        guard value.answers.count == instrument.questionCount else {
            throw HKError(.errorInvalidArgument,
                          "\(instrument.name) needs exactly \(instrument.questionCount) answers, one per question; got \(value.answers.count)")
        }
        for (index, answer) in value.answers.enumerated() where !instrument.answers.contains(answer) {
            let isLast = index == instrument.questionCount - 1
            if isLast, let optional = instrument.optionalLastAnswer, answer == optional { continue }
            let allowed = "\(instrument.answers.lowerBound)…\(instrument.answers.upperBound)"
                + (isLast ? instrument.optionalLastAnswer.map { " or \($0) (preferNotToAnswer)" } ?? "" : "")
            throw HKError(.errorInvalidArgument,
                          "\(instrument.name) question \(index + 1): the answer is not a known Answer raw value (allowed: \(allowed))")
        }
    }

    /// The score: the sum of the answers' points; an answer outside the scored range (PHQ-9's
    /// preferNotToAnswer, or a value a newer peer knows) counts 0.
    public static func score(_ answers: [Int], of instrument: Instrument) -> Int {
        answers.reduce(0) { $0 + (instrument.answers.contains($1) ? $1 : 0) }
    }

    /// The Risk raw value (1 = noneToMinimal …) of `score`: the highest band whose floor it reaches.
    public static func risk(score: Int, of instrument: Instrument) -> Int {
        (instrument.riskFloors.lastIndex { score >= $0 } ?? 0) + 1
    }

    /// Apple's name of a Risk raw value ("moderatelySevere"); "unknown" outside the enum.
    public static func riskName(_ risk: Int, of instrument: Instrument) -> String {
        instrument.riskNames.indices.contains(risk - 1) ? instrument.riskNames[risk - 1] : "unknown"
    }
}
