public import Foundation

/// One metadata value, typed as HealthKit allows them: string, number, date, quantity or bool.
/// HealthKit's API takes `[String: Any]`; this is what such a dictionary becomes once checked.
public enum MetadataValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case date(Date)
    case quantity(value: Double, unit: String)
    case bool(Bool)

    /// Converts a value from a HealthKit-style `[String: Any]` dictionary, or explains why not.
    public init(any value: Any, key: String) throws(HKError) {
        switch value {
        case let bool as Bool where type(of: value) == Bool.self: self = .bool(bool)
        case let string as String: self = .string(string)
        case let date as Date: self = .date(date)
        case let quantity as HKQuantity:
            self = .quantity(value: quantity.doubleValue(for: quantity.unit), unit: quantity.unit.unitString)
        case let number as any BinaryInteger: self = .number(Double(number))
        case let number as any BinaryFloatingPoint: self = .number(Double(number))
        case let number as NSNumber: self = .number(number.doubleValue)
        default:
            throw HKError(.errorInvalidArgument,
                          "metadata value for key \(key) has type \(type(of: value)); use String, a number, Date, HKQuantity or Bool")
        }
    }

    /// The value as HealthKit hands it back in `HKObject.metadata`.
    public var anyValue: Any {
        switch self {
        case let .string(string): string
        case let .number(number): NSNumber(value: number)
        case let .date(date): date
        case let .quantity(value, unit): HKQuantity(unit: HKUnit(from: unit), doubleValue: value)
        case let .bool(bool): NSNumber(value: bool)
        }
    }
}
