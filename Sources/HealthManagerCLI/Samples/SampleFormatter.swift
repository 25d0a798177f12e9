public import Foundation
public import HealthModel

/// How `healthctl samples` shows a sample: table cells in the user's time zone, or one JSON
/// object per line in UTC. Quantities are shown in `displayUnit` when one was asked for.
public struct SampleFormatter: Sendable {
    public let displayUnit: HKUnit?
    public let timeZone: TimeZone

    public init(displayUnit: HKUnit?, timeZone: TimeZone) {
        self.displayUnit = displayUnit
        self.timeZone = timeZone
    }

    public static let tableColumns: [TextTable.Column] = [
        .init("START"), .init("END"), .init("VALUE", .right), .init("UNIT"), .init("SOURCE"), .init("DEVICE"),
    ]

    public func tableRow(_ sample: SampleRecord) -> [String] {
        let (value, unit) = displayedValue(sample.value)
        return [localTime(sample.startDate), localTime(sample.endDate), value, unit,
                sample.source.map { $0.name.isEmpty ? $0.bundleIdentifier : $0.name } ?? "",
                sample.device?.name ?? ""]
    }

    /// One line of JSON (no trailing newline), keys sorted so lines diff cleanly.
    public func jsonLine(_ sample: SampleRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, number, bool or nested object of those: encoding cannot fail.
        let data = try! encoder.encode(SampleJSONLine(sample, formatter: self))
        return String(decoding: data, as: UTF8.self)
    }

    /// The value and unit text: converted to `displayUnit` when that is compatible, else as stored.
    func displayedValue(_ value: SampleRecord.Value) -> (value: String, unit: String) {
        switch value {
        case let .category(raw):
            return ("\(raw)", "")
        case let .correlation(objects):
            // The samples themselves are listed under their own types.
            return ("\(objects.count)", objects.count == 1 ? "sample" : "samples")
        case let .quantity(amount, unit):
            let (converted, shownUnit) = convertedQuantity(amount, unit)
            return (NumberText.measurement(converted), shownUnit)
        case let .workout(workout):
            // A workout's one number is its duration; its activity and totals are in --json.
            return (NumberText.measurement(workout.duration), "s")
        case let .workoutRoute(count):
            return ("\(count)", "locations")
        }
    }

    func convertedQuantity(_ amount: Double, _ unit: String) -> (Double, String) {
        guard let displayUnit,
              let converted = try? HKQuantity(unit: HKUnit(from: unit), doubleValue: amount).value(in: displayUnit)
        else { return (amount, unit) }
        return (converted, displayUnit.unitString)
    }

    /// "2024-05-01 08:30:00" in the user's zone: fixed width, so table columns line up.
    func localTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year!, parts.month!, parts.day!,
                      parts.hour!, parts.minute!, parts.second!)
    }
}
