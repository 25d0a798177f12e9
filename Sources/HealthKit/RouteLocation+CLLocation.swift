import CoreLocation
import Foundation

/// Conversion between CoreLocation's `CLLocation` and the wire's `RouteLocation`.
extension RouteLocation {
    init(location: CLLocation) {
        self.init(timestamp: location.timestamp, latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                  altitude: location.altitude, horizontalAccuracy: location.horizontalAccuracy,
                  verticalAccuracy: location.verticalAccuracy, course: location.course, speed: location.speed)
    }
}

extension CLLocation {
    convenience init(_ location: RouteLocation) {
        self.init(coordinate: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude),
                  altitude: location.altitude, horizontalAccuracy: location.horizontalAccuracy,
                  verticalAccuracy: location.verticalAccuracy, course: location.course, speed: location.speed,
                  timestamp: location.timestamp)
    }
}
