import AppleHealthExport
import HealthModel

/// The export's `Me` element as characteristic values: date of birth and the enum-valued ones by
/// their Objective-C names (`HKBiologicalSexFemale`). "Not set" values are not offered.
enum ImportedCharacteristics {
    static func records(_ characteristics: ExportCharacteristics) -> [CharacteristicRecord] {
        characteristics.values.sorted { $0.key < $1.key }.compactMap { identifier, text in
            guard HKObjectType.type(forIdentifier: identifier) is HKCharacteristicType else { return nil }
            if identifier == "HKCharacteristicTypeIdentifierDateOfBirth" {
                return CalendarDay(iso8601: text).map { CharacteristicRecord(typeIdentifier: identifier, value: .day($0)) }
            }
            guard !text.hasSuffix("NotSet"), let raw = HKObjCEnumNames.characteristicValues[text] else { return nil }
            return CharacteristicRecord(typeIdentifier: identifier, value: .enumeration(raw))
        }
    }
}
