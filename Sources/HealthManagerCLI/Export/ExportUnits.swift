import HealthModel
import HealthWire

/// The unit an export writes each quantity type in: the user's preferred unit where they chose
/// one (`healthctl units set`), else the Health app's metric default (count/min for heart rate,
/// kg, km) — what people's spreadsheets and Apple's own exports expect, rather than the store's
/// canonical unit (heart rate's is count/s).
struct ExportUnits: Sendable {
    private let chosen: [String: HKUnit]

    init(preferences: [PreferredUnit]) {
        var chosen: [String: HKUnit] = [:]
        for preference in preferences {
            guard let type = HKObjectType.type(forIdentifier: preference.typeIdentifier) as? HKQuantityType,
                  let unit = try? HKUnit.parse(preference.unit), type.is(compatibleWith: unit) else { continue }
            chosen[preference.typeIdentifier] = unit
        }
        self.chosen = chosen
    }

    func unit(for type: HKQuantityType) -> HKUnit {
        chosen[type.identifier] ?? PreferredUnitDefaults.unit(for: type, in: .metric)
    }

    /// `amount` (stored in `storedUnit`) in the type's export unit; as stored if it does not convert.
    func converted(_ amount: Double, _ storedUnit: String, typeIdentifier: String) -> (value: Double, unit: String) {
        guard let type = HKObjectType.type(forIdentifier: typeIdentifier) as? HKQuantityType,
              let value = try? HKQuantity(unit: HKUnit.parse(storedUnit), doubleValue: amount).value(in: unit(for: type)) else {
            return (amount, storedUnit)
        }
        return (value, unit(for: type).unitString)
    }
}
