import Foundation
import HealthWire

extension HKHealthStore {
    /// The unit the user reads each type in: their own choice (`healthctl units set`), else the
    /// default for this app's locale (`Locale.current`'s measurement system: metric, US or UK;
    /// see `PreferredUnitDefaults`). Fails with `errorAuthorizationNotDetermined` for a type the
    /// app has requested neither read nor share authorization for, as HealthKit does; any
    /// answer of the user counts, so this reveals nothing about read permission. The first call
    /// opens the process's preferences feed: from then on this store posts
    /// `.HKUserPreferencesDidChange` (object: the store) when the user changes the unit of a type
    /// the app asked about.
    func brokerPreferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        try await preferredUnits(for: quantityTypes, locale: .current)
    }

    func brokerPreferredUnits(for quantityTypes: Set<HKQuantityType>,
                              completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void) {
        Task {
            do {
                completion(try await preferredUnits(for: quantityTypes), nil)
            } catch {
                completion([:], error)
            }
        }
    }

    func preferredUnits(for quantityTypes: Set<HKQuantityType>, locale: Locale) async throws(HKError) -> [HKQuantityType: HKUnit] {
        guard !quantityTypes.isEmpty else { return [:] }
        // Subscribed before the read, so a change made after it is never missed (UserPreferencesFeed).
        await connection.userPreferences.join(self, on: connection)
        let request = PreferredUnitsRequest(typeIdentifiers: quantityTypes.map(\.identifier).sorted(),
                                            measurementSystem: Self.measurementSystem(of: locale).rawValue)
        let answer: PreferredUnitList = try await connection.call(.preferredUnits, request)
        var units: [HKQuantityType: HKUnit] = [:]
        for type in quantityTypes {
            guard let entry = answer.units.first(where: { $0.typeIdentifier == type.identifier }),
                  let unit = try? HKUnit.parse(entry.unit), type.is(compatibleWith: unit) else {
                throw HKError(.unknownError, "healthd sent no usable preferred unit for \(type.identifier)")
            }
            units[type] = unit
        }
        return units
    }

    static func measurementSystem(of locale: Locale) -> MeasurementSystem {
        switch locale.measurementSystem {
        case .us: .us
        case .uk: .uk
        default: .metric
        }
    }
}
