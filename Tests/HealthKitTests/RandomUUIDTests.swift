import Foundation
import Testing

@testable import HealthKit

/// The SDK's own UUIDs (issue 17: Foundation's `UUID()` opened /dev/urandom per object) must
/// still be RFC 4122 version-4 UUIDs, and distinct.
@Suite(.timeLimit(.minutes(10))) struct RandomUUIDTests {
    @Test func versionAndVariantBitsAreSet() {
        for _ in 0..<1_000 {
            let uuid = RandomUUID.make().uuid
            #expect(uuid.6 >> 4 == 4)
            #expect(uuid.8 >> 6 == 0b10)
        }
    }

    @Test func tenThousandAreDistinct() {
        #expect(Set((0..<10_000).map { _ in RandomUUID.make() }).count == 10_000)
    }

    @Test func anObjectMadeHereCarriesOne() {
        let start = Date()
        let sample = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                      start: start, end: start)
        #expect(sample.uuid.uuid.6 >> 4 == 4)
        #expect(sample.uuid != HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1),
                                                start: start, end: start).uuid)
    }
}
