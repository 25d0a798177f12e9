/// HealthKit's metric prefixes, with HealthKit's raw values (HKUnit.h), so
/// `HKUnit.gramUnit(with: .milli)` ports unchanged.
public enum HKMetricPrefix: Int, Sendable, CaseIterable, Codable {
    case none = 0
    case pico = 1
    case nano = 2
    case micro = 3
    case milli = 4
    case centi = 5
    case deci = 6
    case deca = 7
    case hecto = 8
    case kilo = 9
    case mega = 10
    case giga = 11
    case tera = 12
    case femto = 13

    /// The prefix as written in unit strings: "mc" for micro and "da" for deca, as HealthKit
    /// spells them (never "µ").
    public var symbol: String {
        switch self {
        case .none: ""
        case .pico: "p"
        case .nano: "n"
        case .micro: "mc"
        case .milli: "m"
        case .centi: "c"
        case .deci: "d"
        case .deca: "da"
        case .hecto: "h"
        case .kilo: "k"
        case .mega: "M"
        case .giga: "G"
        case .tera: "T"
        case .femto: "f"
        }
    }

    /// The prefix's power of ten; kept as an integer so prefixed factors stay exact.
    var decimalExponent: Int {
        switch self {
        case .none: 0
        case .pico: -12
        case .nano: -9
        case .micro: -6
        case .milli: -3
        case .centi: -2
        case .deci: -1
        case .deca: 1
        case .hecto: 2
        case .kilo: 3
        case .mega: 6
        case .giga: 9
        case .tera: 12
        case .femto: -15
        }
    }

    /// Prefixes in the order the parser tries them: two-letter spellings first, so "mcg"
    /// reads as micro-gram and "dam" as deca-meter.
    static let longestSymbolFirst: [HKMetricPrefix] =
        allCases.filter { $0 != .none }.sorted { $0.symbol.count > $1.symbol.count }
}
