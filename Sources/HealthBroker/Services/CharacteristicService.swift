import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Characteristics: apps read them within their read scope; only the manager sets them (no app
/// method writes one, and a share request for a characteristic is refused at request time).
enum CharacteristicService {
    /// `dateOfBirthComponents()`, `biologicalSex()`, …: the value, or none. An app without read
    /// permission gets none whether or not the user set one (DESIGN.md §7.4): the store query
    /// is the same, confined by the app's read scope.
    static func get(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let identifier = try TypeIdentifierMessage(wire: payload).identifier
        guard CharacteristicKind.of(identifier) != nil else {
            throw HKError(.errorInvalidArgument, "\(identifier.prefix(100)) is not a characteristic type")
        }
        let value = try await context.store.withDatabase { database in
            let scope = try database.authorization.readScope(app: app, type: identifier)
            return try database.characteristics.value(of: identifier, scope: scope.scope)
        }
        CallAccessReport.record(appID: app.id, types: [identifier], count: value == nil ? 0 : 1)
        return MethodTable.Reply(CharacteristicRecord(typeIdentifier: identifier, value: value))
    }

    /// Every characteristic type in the registry's order, each with its value if the user set one.
    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        let values = try await context.store.withDatabase { try $0.characteristics.all() }
        let records = HKObjectType.allTypes.compactMap { type -> CharacteristicRecord? in
            guard type is HKCharacteristicType else { return nil }
            return CharacteristicRecord(typeIdentifier: type.identifier, value: values[type.identifier])
        }
        CallAccessReport.record(appID: nil, types: records.map(\.typeIdentifier), count: values.count)
        return MethodTable.Reply(CharacteristicList(records))
    }

    /// Sets one characteristic, or clears it when the record has no value. A date of birth may
    /// not lie after today in the broker's time zone (the user's own machine).
    static func set(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let record = try CharacteristicRecord(wire: payload)
        try CharacteristicValidator.check(record, today: CalendarDay(containing: Date(), in: .current))
        try await context.store.withDatabase { try $0.characteristics.set(record) }
        CallAccessReport.record(appID: nil, types: [record.typeIdentifier], count: 1,
                                detail: record.value == nil ? "unset" : "set")
        // Without the type: the log reaches the journal, and a type name is health information.
        context.logger.notice("characteristic changed")
        if record.typeIdentifier == HKCharacteristicTypeIdentifier.activityMoveMode.rawValue {
            // The move mode is part of every activity summary from the day it applies.
            context.changes.post(userSettingsChangedFor: HKObjectType.activitySummaryType().identifier)
        }
        return MethodTable.Reply(EmptyMessage())
    }
}
