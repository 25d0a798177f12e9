public import Foundation

/// An app's `enableBackgroundDelivery(for:frequency:)`: launch it when `typeIdentifier` changes in
/// a way it may see and it is not observing the type, at most once per `frequency` period.
public struct BackgroundDeliveryRegistration: Hashable, Sendable {
    public var appID: String
    public var typeIdentifier: String
    public var frequency: HKUpdateFrequency
    /// When the app last enabled it (enabling again updates the frequency and this date).
    public var enabledDate: Date

    public init(appID: String, typeIdentifier: String, frequency: HKUpdateFrequency, enabledDate: Date) {
        self.appID = appID
        self.typeIdentifier = typeIdentifier
        self.frequency = frequency
        self.enabledDate = enabledDate
    }
}

extension HKUpdateFrequency {
    /// The shortest time between two launches for one registration: HealthKit's "at most once
    /// per hour/day/week"; zero for `.immediate`.
    public var minimumInterval: Duration {
        switch self {
        case .immediate: .zero
        case .hourly: .seconds(3600)
        case .daily: .seconds(86_400)
        case .weekly: .seconds(604_800)
        }
    }

    /// The lowercase name healthctl shows and the e2e client takes ("immediate", "hourly", …).
    public var name: String {
        switch self {
        case .immediate: "immediate"
        case .hourly: "hourly"
        case .daily: "daily"
        case .weekly: "weekly"
        }
    }
}
