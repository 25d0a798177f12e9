public import Foundation

/// HealthKit's `HKUserPreferencesDidChangeNotification` (iOS 8.2): the notification name Apple
/// posts, with the health store as its object, when the user changes a preferred unit.
public let HKUserPreferencesDidChangeNotification = "HKUserPreferencesDidChangeNotification"

extension Notification.Name {
    /// `.HKUserPreferencesDidChange`, as Apple's Swift overlay spells it.
    ///
    /// Posted by each `HKHealthStore` of the process that has called `preferredUnits(for:)`, with
    /// the store as its object, when the user changes (`healthctl units set` / `reset`) the unit
    /// of a type the app has asked about — read or share, whatever the answer; a change of any
    /// other type posts nothing. No user info: re-read `preferredUnits(for:)`. Delivered by one
    /// feed per process from healthd (`UserPreferencesFeed`).
    public static let HKUserPreferencesDidChange = Notification.Name(HKUserPreferencesDidChangeNotification)
}
