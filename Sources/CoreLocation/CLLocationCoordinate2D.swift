// The part of Apple's CoreLocation that HealthKit's workout routes use, so route code written for
// Apple platforms compiles here unchanged (`import CoreLocation`, `CLLocation(...)`). Linux has
// no CoreLocation; nothing here talks to a location service.

public typealias CLLocationDegrees = Double
public typealias CLLocationDistance = Double
public typealias CLLocationAccuracy = Double
public typealias CLLocationDirection = Double
public typealias CLLocationDirectionAccuracy = Double
public typealias CLLocationSpeed = Double
public typealias CLLocationSpeedAccuracy = Double

/// A latitude and longitude in degrees (WGS 84), as CoreLocation's.
public struct CLLocationCoordinate2D: Hashable, Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() {
        latitude = 0
        longitude = 0
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// CoreLocation's marker for "no coordinate".
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// Whether `coordinate` is a point on Earth: finite, latitude within ±90 and longitude within ±180.
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    coordinate.latitude.isFinite && coordinate.longitude.isFinite
        && (-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude)
}
