/// One indivisible unit of a unit string: a base unit with its metric prefix and, for moles,
/// the molar mass that turns amounts of substance into grams ("mmol<180.15588>").
struct UnitAtom: Hashable, Sendable {
    let base: BaseUnit
    let prefix: HKMetricPrefix
    let molarMass: Double?

    init(_ base: BaseUnit, prefix: HKMetricPrefix = .none, molarMass: Double? = nil) {
        self.base = base
        self.prefix = prefix
        self.molarMass = molarMass.map(Self.appleMolarMass)
    }

    /// HealthKit keeps a molar mass to 16 significant digits: Apple's Health export prints
    /// glucose's `HKUnitMolarMassBloodGlucose` (180.15588000005408) as `mmol<180.1558800000541>/L`
    /// (spec/healthkit/units.tsv, mol<M> row). Rounding on construction makes a unit parsed from
    /// Apple's string equal to the one built from the constant, and print as Apple prints it.
    static func appleMolarMass(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        return Double(String(format: "%.16g", value)) ?? value
    }

    /// Factor to the dimension's reference unit; only meaningful for linear base units.
    var linearFactor: ScaledFactor {
        guard case .linear(let baseFactor) = base.scale else { return .one }
        return baseFactor * ScaledFactor(molarMass ?? 1, prefix.decimalExponent)
    }

    /// As printed: prefix, symbol, and the molar mass (already at HealthKit's 16 significant
    /// digits) in Swift's shortest round-tripping form: "mmol<180.1558800000541>", as Apple prints.
    var unitString: String {
        let molarMassSuffix = molarMass.map { "<\($0)>" } ?? ""
        return prefix.symbol + base.symbol + molarMassSuffix
    }

    /// Canonical print order of the factors of a compound unit.
    static func printsBefore(_ lhs: UnitAtom, _ rhs: UnitAtom) -> Bool {
        if lhs.base.printOrder != rhs.base.printOrder { return lhs.base.printOrder < rhs.base.printOrder }
        if lhs.prefix.decimalExponent != rhs.prefix.decimalExponent {
            return lhs.prefix.decimalExponent < rhs.prefix.decimalExponent
        }
        return (lhs.molarMass ?? 0) < (rhs.molarMass ?? 0)
    }
}
