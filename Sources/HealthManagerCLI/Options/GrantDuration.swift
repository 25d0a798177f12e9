public import ArgumentParser
public import Foundation

/// A span of time on the command line for a temporary grant: a whole number and one unit,
/// `90s`, `45m`, `8h`, `3d`, `2w`. Deliberately small: months and years have no fixed length.
public struct GrantDuration: Equatable, Sendable, ExpressibleByArgument, CustomStringConvertible {
    public enum Unit: Character, CaseIterable, Sendable {
        case seconds = "s", minutes = "m", hours = "h", days = "d", weeks = "w"

        var seconds: Int {
            switch self {
            case .seconds: 1
            case .minutes: 60
            case .hours: 3600
            case .days: 86_400
            case .weeks: 7 * 86_400
            }
        }

        var word: String {
            switch self {
            case .seconds: "second"
            case .minutes: "minute"
            case .hours: "hour"
            case .days: "day"
            case .weeks: "week"
            }
        }
    }

    public let count: Int
    public let unit: Unit

    public init(count: Int, unit: Unit) {
        self.count = count
        self.unit = unit
    }

    public init?(argument: String) {
        guard let last = argument.last, let unit = Unit(rawValue: last),
              let count = Int(argument.dropLast()), count > 0, count <= 100 * 366 * 86_400 / unit.seconds
        else { return nil }
        self.init(count: count, unit: unit)
    }

    public var timeInterval: TimeInterval { TimeInterval(count * unit.seconds) }

    /// "30 days", "1 hour".
    public var description: String { "\(count) \(unit.word)\(count == 1 ? "" : "s")" }

    /// The help's value format.
    static let valueHelp = "a whole number and s, m, h, d or w (8h, 30d)"

    /// Renders a stored window (whole seconds) in the largest unit that divides it exactly.
    static func describing(_ interval: TimeInterval) -> String {
        let seconds = Int(interval.rounded())
        let unit = Unit.allCases.reversed().first { seconds % $0.seconds == 0 } ?? .seconds
        return GrantDuration(count: max(seconds / unit.seconds, 1), unit: unit).description
    }
}
