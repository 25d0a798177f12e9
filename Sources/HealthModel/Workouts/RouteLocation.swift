public import Foundation

/// One point of a workout route, as plain values: the fields of CoreLocation's `CLLocation` that
/// HealthKit keeps. Negative accuracies, course and speed follow CoreLocation's convention:
/// "not known" (a negative horizontal accuracy would mean the coordinate itself is invalid,
/// which `RouteLocationValidator` refuses).
public struct RouteLocation: Hashable, Sendable {
    public var timestamp: Date
    /// Degrees, -90 ... 90.
    public var latitude: Double
    /// Degrees, -180 ... 180.
    public var longitude: Double
    /// Meters above sea level.
    public var altitude: Double
    /// Meters; must not be negative.
    public var horizontalAccuracy: Double
    /// Meters; negative when the altitude is not known.
    public var verticalAccuracy: Double
    /// Degrees from true north, 0 ..< 360; negative when not known.
    public var course: Double
    /// Meters per second; negative when not known.
    public var speed: Double

    public init(timestamp: Date, latitude: Double, longitude: Double, altitude: Double = 0,
                horizontalAccuracy: Double = 0, verticalAccuracy: Double = -1, course: Double = -1, speed: Double = -1) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
    }
}
