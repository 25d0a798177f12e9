import Foundation
@testable import HealthKit
import Testing

@Suite(.timeLimit(.minutes(10))) struct PreferredUnitLocaleTests {
    @Test func theLocalesMeasurementSystemIsWhatTheSDKSends() {
        #expect(HKHealthStore.measurementSystem(of: Locale(identifier: "en_US")) == .us)
        #expect(HKHealthStore.measurementSystem(of: Locale(identifier: "en_GB")) == .uk)
        #expect(HKHealthStore.measurementSystem(of: Locale(identifier: "de_DE")) == .metric)
        #expect(HKHealthStore.measurementSystem(of: Locale(identifier: "en_US@measure=metric")) == .metric)
    }
}
