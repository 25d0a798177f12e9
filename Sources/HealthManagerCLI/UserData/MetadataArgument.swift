import ArgumentParser
import Foundation
import HealthModel

/// `--metadata KEY=VALUE` for `healthctl add`, read as the key's kind: a predefined key
/// (`HKWasUserEntered=1`, `HKTimeZone=Europe/Berlin`, `HKWeatherTemperature=20 degC`) must hold a
/// value of its kind, and an unknown `HK…` key is refused, as healthd would refuse it; any other
/// key is the user's own and holds text.
struct MetadataArgument: Equatable {
    let key: String
    let value: MetadataValue

    init(parsing text: String, timeZone: TimeZone) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("--metadata \(text): write it as KEY=VALUE")
        }
        let key = String(text[..<equals])
        self.key = key
        let raw = String(text[text.index(after: equals)...])
        guard let kind = HKMetadataKeyRegistry.expectedKind(forKey: key) else {
            if HKMetadataKeyRegistry.isReservedPrefix(key) {
                throw ValidationError("--metadata \(key): not a metadata key HealthKit defines (keys starting with HK are reserved)")
            }
            value = .string(raw)
            return
        }
        func refuse(_ what: String) -> ValidationError { ValidationError("--metadata \(key) takes \(what), not \"\(raw)\"") }
        switch kind {
        case .string:
            value = .string(raw)
        case .number:
            guard let number = Double(raw), number.isFinite else { throw refuse("a number") }
            value = .number(number)
        case .bool:
            switch raw.lowercased() {
            case "1", "true", "yes": value = .bool(true)
            case "0", "false", "no": value = .bool(false)
            default: throw refuse("true or false")
            }
        case .date:
            guard let date = try? DateArgument(parsing: raw), let instant = try? date.start(in: timeZone) else {
                throw refuse("a date such as 2024-05-01T08:30")
            }
            value = .date(instant)
        case .quantity:
            let parts = raw.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let amount = Double(parts[0]), amount.isFinite, (try? HKUnit.parse(parts[1])) != nil else {
                throw refuse("a number and a unit such as \"20 degC\"")
            }
            value = .quantity(value: amount, unit: parts[1])
        }
    }
}
