import HealthModel
import Testing

@Suite(.timeLimit(.minutes(10))) struct CharacteristicValidatorTests {
    let today = CalendarDay(year: 2025, month: 6, day: 15)!

    func check(_ identifier: HKCharacteristicTypeIdentifier, _ value: CharacteristicRecord.Value?) throws(HKError) {
        try CharacteristicValidator.check(CharacteristicRecord(typeIdentifier: identifier.rawValue, value: value), today: today)
    }

    @Test func everyCharacteristicTypeHasAKindAndNothingElseDoes() {
        for type in HKObjectType.allTypes {
            #expect((CharacteristicKind.of(type.identifier) != nil) == (type is HKCharacteristicType), "\(type.identifier)")
        }
    }

    @Test func enumeratedTypesAcceptTheirValuesButNotNotSet() throws {
        try check(.biologicalSex, .enumeration(HKBiologicalSex.other.rawValue))
        try check(.bloodType, .enumeration(HKBloodType.oNegative.rawValue))
        try check(.fitzpatrickSkinType, .enumeration(HKFitzpatrickSkinType.VI.rawValue))
        try check(.wheelchairUse, .enumeration(HKWheelchairUse.yes.rawValue))
        try check(.activityMoveMode, .enumeration(HKActivityMoveMode.appleMoveTime.rawValue))
        for (type, raw) in [(HKCharacteristicTypeIdentifier.biologicalSex, 0), (.bloodType, 9), (.fitzpatrickSkinType, 7),
                            (.wheelchairUse, 0), (.activityMoveMode, 0)] {
            #expect(throws: HKError.self, "\(type.rawValue) \(raw)") { try check(type, .enumeration(raw)) }
        }
    }

    @Test func unsetIsAlwaysValid() throws {
        for identifier in [HKCharacteristicTypeIdentifier.dateOfBirth, .bloodType, .activityMoveMode] {
            try check(identifier, nil)
        }
    }

    @Test func dateOfBirthMustLieBetween1900AndToday() throws {
        try check(.dateOfBirth, .day(CalendarDay(year: 1900, month: 1, day: 1)!))
        try check(.dateOfBirth, .day(today))
        #expect(throws: HKError.self) { try check(.dateOfBirth, .day(CalendarDay(year: 2025, month: 6, day: 16)!)) }
        #expect(throws: HKError.self) { try check(.dateOfBirth, .day(CalendarDay(year: 1899, month: 12, day: 31)!)) }
    }

    @Test func aValueOfTheWrongKindNamesWhatTheTypeTakes() {
        #expect(throws: HKError(.errorInvalidArgument, "HKCharacteristicTypeIdentifierDateOfBirth takes a calendar day, not an enum value")) {
            try check(.dateOfBirth, .enumeration(1))
        }
        #expect(throws: HKError(.errorInvalidArgument, "HKCharacteristicTypeIdentifierBloodType takes an enum value, not a calendar day")) {
            try check(.bloodType, .day(today))
        }
        #expect(throws: HKError(.errorInvalidArgument, "HKQuantityTypeIdentifierStepCount is not a characteristic type")) {
            try CharacteristicValidator.check(
                CharacteristicRecord(typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, value: nil), today: today)
        }
    }

    @Test func theMoveModeReadsAsActiveEnergyWhenUnset() {
        #expect(CharacteristicKind.of(HKCharacteristicTypeIdentifier.activityMoveMode.rawValue)
                == .enumeration(allowed: [1, 2], unsetValue: HKActivityMoveMode.activeEnergy.rawValue))
        #expect(CharacteristicKind.of(HKCharacteristicTypeIdentifier.wheelchairUse.rawValue)
                == .enumeration(allowed: [1, 2], unsetValue: HKWheelchairUse.notSet.rawValue))
    }
}
