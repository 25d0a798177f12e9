import HealthWire

/// The user's characteristics, as HealthKit reads them: synchronous and throwing, each one
/// round-trip to healthd (`BrokerConnection.callBlocking`: safe from the main thread and from async code).
///
/// The app needs read permission for the characteristic type. Without it — denied or never
/// asked — the value looks exactly as if the user had not set it: `.notSet` (for the move mode,
/// `.activeEnergy`, HealthKit's default), or date components with no year, month or day.
/// Apps cannot write characteristics; the user sets them with `healthctl characteristics set`.
extension HKHealthStore {
    /// The date of birth as year, month and day in the Gregorian calendar (no time zone applies).
    func brokerDateOfBirthComponents() throws -> DateComponents {
        switch try characteristic(.dateOfBirth) {
        case let .day(day)?: return day.dateComponents
        default: return DateComponents(calendar: Calendar(identifier: .gregorian))
        }
    }

    /// developer.apple.com/documentation/healthkit/hkhealthstore/dateofbirth(): the birthdate as a
    /// date, or — "if the user has not yet specified a birth date, or if the user has denied your
    /// app permission to read the birth date" — nil, which Swift sees as a thrown error; here
    /// `errorNoData`. The date is the start of that day in the Gregorian calendar of the current
    /// time zone (a date of birth is a calendar day, which is why Apple replaced this call).
    /// Goes through `dateOfBirthComponents()` so a test double's components serve both forms.
    func brokerDateOfBirth() throws -> Date {
        let components = try dateOfBirthComponents()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        guard let year = components.year, let month = components.month, let day = components.day,
              let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else {
            throw HKError(.errorNoData, "no date of birth is set, or this app may not read it; "
                          + "dateOfBirth() has no value to return (use dateOfBirthComponents())")
        }
        return date
    }

    func brokerBiologicalSex() throws -> HKBiologicalSexObject {
        HKBiologicalSexObject(try enumeration(.biologicalSex, as: HKBiologicalSex.self))
    }

    func brokerBloodType() throws -> HKBloodTypeObject {
        HKBloodTypeObject(try enumeration(.bloodType, as: HKBloodType.self))
    }

    func brokerFitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject {
        HKFitzpatrickSkinTypeObject(try enumeration(.fitzpatrickSkinType, as: HKFitzpatrickSkinType.self))
    }

    func brokerWheelchairUse() throws -> HKWheelchairUseObject {
        HKWheelchairUseObject(try enumeration(.wheelchairUse, as: HKWheelchairUse.self))
    }

    func brokerActivityMoveMode() throws -> HKActivityMoveModeObject {
        HKActivityMoveModeObject(try enumeration(.activityMoveMode, as: HKActivityMoveMode.self))
    }

    /// The enum value of `type`, or the type's unset value (`CharacteristicKind`).
    private func enumeration<Value: RawRepresentable>(
        _ type: HKCharacteristicTypeIdentifier, as _: Value.Type
    ) throws(HKError) -> Value where Value.RawValue == Int {
        guard case let .enumeration(_, unsetValue)? = CharacteristicKind.of(type.rawValue) else {
            preconditionFailure("\(type.rawValue) is not an enumerated characteristic")
        }
        let raw: Int
        switch try characteristic(type) {
        case let .enumeration(value)?: raw = value
        default: raw = unsetValue
        }
        guard let value = Value(rawValue: raw) else {
            throw HKError(.unknownError, "healthd sent a \(type.rawValue) value this SDK does not know; "
                          + "the SDK and healthd versions may not match")
        }
        return value
    }

    /// The stored value of `type` as the broker lets this app see it; nil for unset.
    private func characteristic(_ type: HKCharacteristicTypeIdentifier) throws(HKError) -> CharacteristicRecord.Value? {
        try connection.callBlocking(.getCharacteristic, TypeIdentifierMessage(type.rawValue), returning: CharacteristicRecord.self).value
    }
}
