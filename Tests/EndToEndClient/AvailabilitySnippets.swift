import HealthKit

/// developer.apple.com/documentation/healthkit/hkhealthstore/ishealthdataavailable(): "Call
/// this method before calling any other HealthKit methods" — Apple's guard, unchanged.
func healthDataAvailable() {
    if HKHealthStore.isHealthDataAvailable() {
        // Add code to use HealthKit here.
        print("ok available")
    } else {
        print("ok unavailable")
    }
}
