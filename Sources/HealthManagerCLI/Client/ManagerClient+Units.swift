public import HealthWire

/// The preferred-unit methods.
extension ManagerClient {
    /// The user's chosen units, by type.
    public func listUnitPreferences() async throws(HealthCtlError) -> [PreferredUnit] {
        let list: PreferredUnitList = try await unary(.listUnitPreferences, EmptyMessage(), action: "list the preferred units")
        return list.units
    }

    /// Sets the unit for a type; an empty unit resets it to the apps' locale default.
    public func setUnitPreference(_ choice: PreferredUnit) async throws(HealthCtlError) {
        let name = TypeDisplayName.words(of: choice.typeIdentifier)
        let _: EmptyMessage = try await unary(.setUnitPreference, choice,
                                              action: choice.unit.isEmpty ? "reset the unit of \(name)" : "set the unit of \(name)")
    }
}
