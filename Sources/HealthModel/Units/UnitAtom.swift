/// One indivisible unit of a unit string: a base unit with its metric prefix and, for moles,
/// the molar mass that turns amounts of substance into grams ("mmol<180.15588>").
struct UnitAtom: Hashable, Sendable {
    let base: BaseUnit
    let prefix: HKMetricPrefix
    let molarMass: Double?

    init(_ base: BaseUnit, prefix: HKMetricPrefix = .none, molarMass: Double? = nil) {
        self.base = base
        self.prefix = prefix
        self.molarMass = molarMass
    }

    /// Factor to the dimension's reference unit; only meaningful for linear base units.
    var linearFactor: ScaledFactor {
        guard case .linear(let baseFactor) = base.scale else { return .one }
        return baseFactor * ScaledFactor(molarMass ?? 1, prefix.decimalExponent)
    }

    /// As printed: prefix, symbol, and the molar mass in Swift's shortest round-tripping form,
    /// which reproduces HealthKit's "mol<180.15588000005408>".
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
