import HealthModel

/// A goal from the command line: a number with an optional unit, `600kcal`, `2500kJ`, `30min`,
/// `1.5h`, `12h`, `12`. Without a unit, the goal's own unit. Converted to the unit goals are
/// kept in (kcal, min, hours).
enum GoalArgument {
    enum Kind: String {
        case move, exercise, stand, moveTime = "move time"

        /// The unit goals of this kind are kept in, as HKUnit, and as written on the command line.
        var unit: (stored: HKUnit, written: String) {
            switch self {
            case .move: (.kilocalorie(), "kcal")
            case .exercise, .moveTime: (.minute(), "min")
            case .stand: (.hour(), "h")
            }
        }
    }

    /// The goal in its kind's unit, or a message saying what is wrong with `text`.
    static func parse(_ text: String, as kind: Kind) throws(GoalArgumentError) -> Double {
        guard let match = text.wholeMatch(of: /(\d+(?:\.\d+)?)\s*([A-Za-z]*)/), let number = Double(match.1) else {
            throw GoalArgumentError(text: text, kind: kind)
        }
        let written = String(match.2)
        // "h" is how people write hours; HealthKit's unit string is "hr".
        let unitText = written.isEmpty ? nil : (written == "h" ? "hr" : written)
        guard let unitText else { return number }
        guard let unit = try? HKUnit.parse(unitText), unit.isCompatible(with: kind.unit.stored) else {
            throw GoalArgumentError(text: text, kind: kind)
        }
        return HKQuantity(unit: unit, doubleValue: number).doubleValue(for: kind.unit.stored)
    }
}

struct GoalArgumentError: Error, CustomStringConvertible {
    let text: String
    let kind: GoalArgument.Kind

    var description: String {
        let example = switch kind {
        case .move: "600kcal (or kJ)"
        case .exercise, .moveTime: "30min (or h)"
        case .stand: "12h"
        }
        return "\(text.prefix(40)) is not a \(kind.rawValue) goal; write a number and a unit, e.g. \(example)"
    }
}
