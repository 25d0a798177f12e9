/// The checks a characteristic passes before the broker stores it. Messages name the type and
/// what is wrong, never the value.
public enum CharacteristicValidator {
    /// The earliest date of birth accepted, as for samples (`SampleLimits`).
    public static let earliestDateOfBirth = CalendarDay(year: 1900, month: 1, day: 1)!

    /// Throws unless `record` names a characteristic type and its value fits that type;
    /// `today` bounds a date of birth (no one is born in the future). A nil value (unset) is
    /// always valid.
    public static func check(_ record: CharacteristicRecord, today: CalendarDay) throws(HKError) {
        guard let kind = CharacteristicKind.of(record.typeIdentifier) else {
            throw HKError(.errorInvalidArgument, "\(record.typeIdentifier.prefix(100)) is not a characteristic type")
        }
        guard let value = record.value else { return }
        switch (kind, value) {
        case let (.day, .day(day)):
            guard day >= earliestDateOfBirth, day <= today else {
                throw HKError(.errorInvalidArgument,
                              "\(record.typeIdentifier): the date must lie between \(earliestDateOfBirth) and today")
            }
        case let (.enumeration(allowed, _), .enumeration(raw)):
            guard allowed.contains(raw) else {
                throw HKError(.errorInvalidArgument,
                              "\(record.typeIdentifier): the value is not one of the type's enum values "
                              + allowed.map(String.init).joined(separator: ", "))
            }
        case (.day, .enumeration):
            throw HKError(.errorInvalidArgument, "\(record.typeIdentifier) takes a calendar day, not an enum value")
        case (.enumeration, .day):
            throw HKError(.errorInvalidArgument, "\(record.typeIdentifier) takes an enum value, not a calendar day")
        }
    }
}
