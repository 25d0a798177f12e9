import HealthWire

extension HKHealthStore {
    /// Asks healthd to launch the app when `type` changes in a way the app may see while it is
    /// not running an `HKObserverQuery` of the type — at most once per `frequency` period. The
    /// launched app should start its observer queries at once and call each update's completion
    /// handler; launches that go unacknowledged are retried with growing delays and stop after
    /// three. Needs the `com.apple.developer.healthkit.background-delivery` entitlement in the
    /// app's manifest (else `errorAuthorizationDenied`) and a running `health-sandbox agent`,
    /// which does the launching. Enabling a type again changes its frequency.
    func brokerEnableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
        let _: EmptyMessage = try await connection.call(.enableBackgroundDelivery,
                                                        BackgroundDeliverySpec(typeIdentifier: type.identifier, frequency: frequency))
    }

    func brokerEnableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency,
                                        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.enableBackgroundDelivery(for: type, frequency: frequency) }
    }

    /// Stops background delivery of `type`. Succeeds when it was not enabled.
    func brokerDisableBackgroundDelivery(for type: HKObjectType) async throws {
        let _: EmptyMessage = try await connection.call(.disableBackgroundDelivery,
                                                        BackgroundDeliverySpec(typeIdentifier: type.identifier, frequency: nil))
    }

    func brokerDisableBackgroundDelivery(for type: HKObjectType,
                                         withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.disableBackgroundDelivery(for: type) }
    }

    /// Stops background delivery of every type.
    func brokerDisableAllBackgroundDelivery() async throws {
        let _: EmptyMessage = try await connection.call(.disableAllBackgroundDeliveries, EmptyMessage())
    }

    func brokerDisableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.disableAllBackgroundDelivery() }
    }
}
