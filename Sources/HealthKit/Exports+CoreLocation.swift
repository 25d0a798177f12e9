// Apple's HealthKit headers import CoreLocation (the route builder takes CLLocation), so Swift
// code that imports HealthKit sees CLLocation without importing CoreLocation; the same here.
@_exported public import CoreLocation
