public import HealthModel
public import HealthWire

/// The characteristic methods: the user's own values, which only the manager may change.
extension ManagerClient {
    /// Every characteristic type, each with its value if set.
    public func listCharacteristics() async throws(HealthCtlError) -> [CharacteristicRecord] {
        let list: CharacteristicList = try await unary(.listCharacteristics, EmptyMessage(), action: "list the characteristics")
        return list.characteristics
    }

    /// Sets `record`, or clears it when its value is nil.
    public func setCharacteristic(_ record: CharacteristicRecord) async throws(HealthCtlError) {
        let verb = record.value == nil ? "clear" : "set"
        let _: EmptyMessage = try await unary(.setCharacteristic, record,
                                              action: "\(verb) \(TypeDisplayName.words(of: record.typeIdentifier))")
    }
}
