import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Preferred units: the user's choice per quantity type (set in the manager), else the
/// default for the app's measurement system (`PreferredUnitDefaults`). Not health data, so
/// neither method is access-logged.
enum PreferredUnitService {
    /// `preferredUnits(for:)`: one unit per requested type, for types the app has asked about.
    static func preferredUnits(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let request = try PreferredUnitsRequest(wire: payload)
        guard let system = MeasurementSystem(rawValue: request.measurementSystem) else {
            throw HKError(.errorInvalidArgument, "unknown measurement system \(request.measurementSystem.prefix(32)); "
                          + "use \(MeasurementSystem.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let identifiers = Array(Set(request.typeIdentifiers)).sorted()
        guard !identifiers.isEmpty, identifiers.count <= 512 else {
            throw HKError(.errorInvalidArgument, "name between 1 and 512 quantity types")
        }
        let types = try identifiers.map { (identifier) throws(HKError) -> HKQuantityType in try quantityType(identifier) }
        let choices = try await context.store.withDatabase { database in
            try database.authorization.checkAskedAbout(app: app, types: identifiers)
            return try database.unitPreferences.all()
        }
        return MethodTable.Reply(PreferredUnitList(types.map { type in
            PreferredUnit(typeIdentifier: type.identifier, unit: answer(choices[type.identifier], for: type, in: system))
        }))
    }

    /// The unit an app is told for `type`: the user's choice while it still parses and measures
    /// the type, else the default for `system`. A choice stored before a rule about units
    /// tightened (session 16: units within 10^±60 of their base unit) is never handed to an app,
    /// whose every conversion with it would be NaN or infinite.
    static func answer(_ choice: String?, for type: HKQuantityType, in system: MeasurementSystem) -> String {
        if let choice, let unit = try? HKUnit.parse(choice), type.is(compatibleWith: unit) { return choice }
        return PreferredUnitDefaults.unit(for: type, in: system).unitString
    }

    /// The user's choices, by type identifier.
    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        let choices = try await context.store.withDatabase { try $0.unitPreferences.all() }
        return MethodTable.Reply(PreferredUnitList(choices.sorted { $0.key < $1.key }.map {
            PreferredUnit(typeIdentifier: $0.key, unit: $0.value)
        }))
    }

    /// Sets the user's unit for a type (one it can be measured in), or removes it (empty unit).
    static func set(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let choice = try PreferredUnit(wire: payload)
        let type = try quantityType(choice.typeIdentifier)
        var unitString: String?
        if !choice.unit.isEmpty {
            let unit = try HKUnit.parse(choice.unit)
            guard type.is(compatibleWith: unit) else {
                throw HKError(.errorInvalidArgument,
                              "\(choice.unit.prefix(64)) cannot measure \(type.identifier); use a unit like \(type.canonicalUnit.unitString)")
            }
            unitString = unit.unitString
        }
        try await context.store.withDatabase { try $0.unitPreferences.set(unitString, for: type.identifier) }
        // Without the type: the log reaches the journal, and a type name is health information.
        context.logger.notice("preferred unit changed")
        // Committed: the running apps that may read this type's unit re-read it.
        context.userPreferences.post(changedType: type.identifier)
        return MethodTable.Reply(EmptyMessage())
    }

    private static func quantityType(_ identifier: String) throws(HKError) -> HKQuantityType {
        guard let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType else {
            throw HKError(.errorInvalidArgument, "\(identifier.prefix(100)) is not a quantity type")
        }
        return type
    }
}
