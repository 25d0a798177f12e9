/// The checks a state of mind passes before it is stored, with HealthKit's rules: a known kind, a
/// valence in −1…1 (HealthKit refuses others with `errorInvalidArgument`, "Only valence values
/// in the range [-1, +1] are supported"), and only labels and associations HealthKit defines.
/// A state of mind is one moment (Apple's initializer takes one date), so start must equal end.
/// Repeats are refused too: a label twice says nothing more, and the store keeps each once so a
/// label predicate matches a sample once.
enum StateOfMindValidator {
    static func check(_ value: StateOfMindValue, of record: SampleRecord) throws(HKError) {
        let type = record.typeIdentifier
        guard record.startDate == record.endDate else {
            throw HKError(.errorInvalidArgument, "\(type): a state of mind has one date; its start and end must be equal")
        }
        guard StateOfMindValue.kinds.contains(value.kind) else {
            throw HKError(.errorInvalidArgument, "\(type): kind must be momentaryEmotion (1) or dailyMood (2)")
        }
        // `contains` is false for NaN, so NaN is refused with the out-of-range values.
        guard StateOfMindValue.valenceRange.contains(value.valence) else {
            throw HKError(.errorInvalidArgument, "\(type): valence must be a number from -1 to +1")
        }
        try checkList(value.labels, known: StateOfMindValue.labels, name: "label", type: type)
        try checkList(value.associations, known: StateOfMindValue.associations, name: "association", type: type)
    }

    private static func checkList(_ values: [Int], known: ClosedRange<Int>, name: String, type: String) throws(HKError) {
        // Every value is known, so at most `known.count` distinct ones: a longer list repeats one.
        var seen = Set<Int>()
        for value in values {
            guard known.contains(value) else {
                throw HKError(.errorInvalidArgument, "\(type): \(name) \(value) is not one of HealthKit's \(name)s (\(known.lowerBound)…\(known.upperBound))")
            }
            guard seen.insert(value).inserted else {
                throw HKError(.errorInvalidArgument, "\(type): \(name) \(value) is given twice")
            }
        }
    }
}
