import ArgumentParser
import HealthModel
import HealthWire

/// `healthctl units set TYPE UNIT`.
struct UnitsSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Choose the unit of one quantity type.",
        discussion: """
            UNIT is a HealthKit unit string that can measure the type: kg, lb, st, cm, in, km, \
            mi, degC, degF, mg/dL, mmol<180.1558800000541>/L, count/min, kcal, kJ, …

            Example:
              healthctl units set bodyTemperature degF
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The quantity type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String

    @Argument(help: ArgumentHelp("The unit.", valueName: "unit"))
    var unit: String

    func validate() throws {
        let quantityType = try UnitsTypeCheck.quantityType(type)
        let parsed: HKUnit
        do {
            parsed = try HKUnit.parse(unit)
        } catch {
            throw ValidationError("'\(unit)' is not a HealthKit unit string (\(error.message)); e.g. kg, lb, cm, mi, degF, mg/dL")
        }
        guard quantityType.is(compatibleWith: parsed) else {
            throw ValidationError("'\(unit)' cannot measure \(TypeDisplayName.words(of: type)); use a unit like \(quantityType.canonicalUnit.unitString)")
        }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.setUnitPreference(PreferredUnit(typeIdentifier: type, unit: unit))
        CommandIO.current.output.writeLine("\(TypeDisplayName.words(of: type)): apps asking for your preferred unit now get \(unit).")
    }
}

/// The check `units set` and `units reset` share: the type must be a quantity type.
enum UnitsTypeCheck {
    static func quantityType(_ identifier: String) throws -> HKQuantityType {
        guard let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType else {
            throw ValidationError("\(TypeDisplayName.words(of: identifier)) is not a quantity type; only quantities have units")
        }
        return type
    }
}
