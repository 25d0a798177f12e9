import Foundation
import HealthKit
import Testing

/// Apple declares `HKUnit`, `HKQuantity`, `HKObjectType`, `HKSource`, `HKSourceRevision`,
/// `HKDevice` and `HKQueryAnchor` `NSCopying` (their pages' "Conforms To"), so app code keeps
/// them in `@NSCopying` properties and calls `copy()`. A copy must equal the original.
@Suite(.timeLimit(.minutes(10))) struct ImmutableCopyingTests {
    /// Written as apps write it: the property copies what is assigned to it.
    final class Settings {
        @NSCopying var unit: HKUnit = .count()
        @NSCopying var type: HKObjectType = HKQuantityType(.stepCount)
        @NSCopying var goal: HKQuantity = HKQuantity(unit: .count(), doubleValue: 10_000)
    }

    @Test func copyingPropertiesKeepTheValueAssigned() {
        let settings = Settings()
        settings.unit = .gramUnit(with: .kilo)
        settings.type = HKQuantityType(.bodyMass)
        settings.goal = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70)
        #expect(settings.unit == .gramUnit(with: .kilo))
        #expect(settings.type == HKQuantityType(.bodyMass))
        #expect(settings.goal.doubleValue(for: .gram()) == 70_000)
    }

    @Test func aCopyEqualsItsOriginal() throws {
        let unit = HKUnit(from: "mg/dL")
        #expect(try #require(unit.copy() as? HKUnit) == unit)
        let quantity = HKQuantity(unit: .meter(), doubleValue: 5)
        #expect(try #require(quantity.copy() as? HKQuantity) == quantity)
        let type = HKCategoryType(.sleepAnalysis)
        #expect(try #require(type.copy() as? HKCategoryType) == type)
        let device = HKDevice(name: "Band", manufacturer: "Example", model: "X", hardwareVersion: nil, firmwareVersion: nil,
                              softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
        #expect(try #require(device.copy() as? HKDevice) == device)
        let anchor = HKQueryAnchor(fromValue: HKAnchoredObjectQueryNoAnchor)
        #expect(try #require(anchor.copy() as? HKQueryAnchor) == anchor)
    }
}
