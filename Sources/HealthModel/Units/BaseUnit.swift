/// One unit symbol of HealthKit's unit-string grammar (the rows of units.tsv): what it
/// measures, how it converts, and whether metric prefixes may be put in front of it.
struct BaseUnit: Hashable, Sendable {
    /// The canonical spelling, as `unitString` prints it.
    let symbol: String
    /// Other spellings the parser accepts ("l" for liter).
    let alternativeSpellings: [String]
    let dimension: UnitDimension
    let scale: UnitScale
    let acceptsPrefix: Bool
    /// Mole units convert to grams through a molar mass written as `mol<180.15588>`.
    let requiresMolarMass: Bool
    /// Position in `BaseUnit.all`; orders the factors of a printed compound unit.
    let printOrder: Int

    static func == (lhs: BaseUnit, rhs: BaseUnit) -> Bool { lhs.symbol == rhs.symbol }
    func hash(into hasher: inout Hasher) { hasher.combine(symbol) }

    /// The unit whose canonical symbol or alternative spelling is `spelling`.
    static func named(_ spelling: String) -> BaseUnit? { bySpelling[spelling] }

    private static let bySpelling: [String: BaseUnit] = {
        var table: [String: BaseUnit] = [:]
        for unit in all {
            for spelling in [unit.symbol] + unit.alternativeSpellings { table[spelling] = unit }
        }
        return table
    }()
}
