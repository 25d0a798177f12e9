import HealthModel

/// How characteristic values are typed on the command line and shown in tables: words a
/// person uses ("female", "A+", "III", "yes", "active-energy", "1984-03-02"), not raw values.
enum CharacteristicSpelling {
    /// The spellings of each settable value of an enumerated characteristic, in raw-value order.
    /// The first spelling is the one shown; all are accepted, in any case.
    static func spellings(of identifier: String) -> [(raw: Int, names: [String])] {
        switch HKCharacteristicTypeIdentifier(rawValue: identifier) {
        case .biologicalSex:
            [(HKBiologicalSex.female.rawValue, ["female"]), (HKBiologicalSex.male.rawValue, ["male"]),
             (HKBiologicalSex.other.rawValue, ["other"])]
        case .bloodType:
            [(HKBloodType.aPositive.rawValue, ["A+"]), (HKBloodType.aNegative.rawValue, ["A-"]),
             (HKBloodType.bPositive.rawValue, ["B+"]), (HKBloodType.bNegative.rawValue, ["B-"]),
             (HKBloodType.abPositive.rawValue, ["AB+"]), (HKBloodType.abNegative.rawValue, ["AB-"]),
             (HKBloodType.oPositive.rawValue, ["O+"]), (HKBloodType.oNegative.rawValue, ["O-"])]
        case .fitzpatrickSkinType:
            [(HKFitzpatrickSkinType.I.rawValue, ["I", "1"]), (HKFitzpatrickSkinType.II.rawValue, ["II", "2"]),
             (HKFitzpatrickSkinType.III.rawValue, ["III", "3"]), (HKFitzpatrickSkinType.IV.rawValue, ["IV", "4"]),
             (HKFitzpatrickSkinType.V.rawValue, ["V", "5"]), (HKFitzpatrickSkinType.VI.rawValue, ["VI", "6"])]
        case .wheelchairUse:
            [(HKWheelchairUse.no.rawValue, ["no"]), (HKWheelchairUse.yes.rawValue, ["yes"])]
        case .activityMoveMode:
            [(HKActivityMoveMode.activeEnergy.rawValue, ["active-energy"]),
             (HKActivityMoveMode.appleMoveTime.rawValue, ["move-time", "apple-move-time"])]
        default:
            []
        }
    }

    /// The value `text` stands for as a value of `identifier`, or an error listing what is valid.
    static func parse(_ text: String, for identifier: String) throws(CharacteristicValueError) -> CharacteristicRecord.Value {
        if CharacteristicKind.of(identifier) == .day {
            guard let day = CalendarDay(iso8601: text) else {
                throw CharacteristicValueError(text: text, typeIdentifier: identifier, validValues: ["YYYY-MM-DD, e.g. 1984-03-02"])
            }
            return .day(day)
        }
        let spellings = spellings(of: identifier)
        let wanted = text.lowercased()
        guard let match = spellings.first(where: { $0.names.contains { $0.lowercased() == wanted } }) else {
            throw CharacteristicValueError(text: text, typeIdentifier: identifier, validValues: spellings.map { $0.names[0] })
        }
        return .enumeration(match.raw)
    }

    /// How a value is shown; "not set" for none.
    static func display(_ value: CharacteristicRecord.Value?, of identifier: String) -> String {
        switch value {
        case nil: "not set"
        case let .day(day)?: day.description
        case let .enumeration(raw)?:
            spellings(of: identifier).first { $0.raw == raw }?.names[0] ?? "unknown value \(raw)"
        }
    }
}

/// A value typed for a characteristic that it cannot take.
struct CharacteristicValueError: Error, Equatable, CustomStringConvertible {
    let text: String
    let typeIdentifier: String
    let validValues: [String]

    var description: String {
        "'\(text)' is not a valid \(TypeDisplayName.words(of: typeIdentifier).lowercased()); use "
            + (validValues.count == 1 ? validValues[0] : "one of: " + validValues.joined(separator: ", "))
    }
}
