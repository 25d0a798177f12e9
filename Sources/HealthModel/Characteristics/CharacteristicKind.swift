/// What values each characteristic type takes, from the generated enums: the one table the
/// validator, the SDK's answer for an unset value and healthctl's spellings agree on.
public enum CharacteristicKind: Hashable, Sendable {
    /// A calendar day (date of birth).
    case day
    /// One of the enum's raw values (`allowed`: those the user may set). `unsetValue` is what
    /// an app reads while the user has set none; `notSet` itself is never stored (the user
    /// clears a value with `unset`).
    case enumeration(allowed: [Int], unsetValue: Int)

    /// The kind of `identifier`, or nil for anything but a characteristic type.
    public static func of(_ identifier: String) -> CharacteristicKind? {
        switch HKCharacteristicTypeIdentifier(rawValue: identifier) {
        case .dateOfBirth: .day
        case .biologicalSex: enumeration(HKBiologicalSex.allCases.filter { $0 != .notSet }, unset: .notSet)
        case .bloodType: enumeration(HKBloodType.allCases.filter { $0 != .notSet }, unset: .notSet)
        case .fitzpatrickSkinType: enumeration(HKFitzpatrickSkinType.allCases.filter { $0 != .notSet }, unset: .notSet)
        case .wheelchairUse: enumeration(HKWheelchairUse.allCases.filter { $0 != .notSet }, unset: .notSet)
        // HKActivityMoveMode has no notSet: a user who never chose moves by active energy,
        // which is what HealthKit reports for them.
        case .activityMoveMode: enumeration(HKActivityMoveMode.allCases, unset: .activeEnergy)
        default: nil
        }
    }

    private static func enumeration<E: RawRepresentable>(_ settable: [E], unset: E) -> CharacteristicKind where E.RawValue == Int {
        .enumeration(allowed: settable.map(\.rawValue), unsetValue: unset.rawValue)
    }
}
