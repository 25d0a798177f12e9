public import Foundation

/// HealthKit's `HKUserPreferencesDidChangeNotification` (iOS 8.2): the notification name Apple
/// posts, with the health store as its object, when the user changes a preferred unit.
public let HKUserPreferencesDidChangeNotification = "HKUserPreferencesDidChangeNotification"

extension Notification.Name {
    /// `.HKUserPreferencesDidChange`, as Apple's Swift overlay spells it.
    ///
    /// Not posted yet: the user changes units with `healthctl units set` in another process and
    /// healthd has no feed that tells running apps. Code observing it compiles and runs unchanged;
    /// re-read `preferredUnits(for:)` when a screen appears to pick up a change.
    public static let HKUserPreferencesDidChange = Notification.Name(HKUserPreferencesDidChangeNotification)
}
