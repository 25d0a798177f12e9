import Foundation
import Testing
@testable import HealthModel

/// HealthKit's percent unit, as developer.apple.com/documentation/healthkit/hkunit/percent()
/// states it: "Percent measures a value between 0.0 and 1.0. […] Even though count and percent
/// units are both scalar units, you cannot convert between them." Until session 15 `%` was
/// 1/100 of a count here, so 50 % converted to 0.5 count and a percentage type accepted counts.
@Suite(.timeLimit(.minutes(10))) struct PercentUnitTests {
    /// The scalar units a percent could be mistaken for: count and everything that reduces to
    /// a plain number (the null unit, a rate of counts times time, a ratio of the same units).
    static let scalars: [(String, HKUnit)] = [
        ("count", .count()),
        ("null unit m/m", HKUnit.meter().unitDivided(by: .meter())),
        ("parsed ()", HKUnit(from: "()")),
        ("count/min·min", HKUnit(from: "count/min").unitMultiplied(by: .minute())),
        ("dL/L", HKUnit.literUnit(with: .deci).unitDivided(by: .liter())),
    ]

    @Test(arguments: scalars)
    func percentAndAScalarDoNotConvert(_ written: String, _ scalar: HKUnit) {
        #expect(!HKUnit.percent().isCompatible(with: scalar), "\(written)")
        #expect(!scalar.isCompatible(with: .percent()), "\(written)")
        let half = HKQuantity(unit: .percent(), doubleValue: 0.5)
        #expect(!half.is(compatibleWith: scalar), "\(written)")
        #expect(throws: HKError.self, "\(written)") { try half.value(in: scalar) }
        #expect(half.doubleValue(for: scalar).isNaN, "\(written)")
        #expect(throws: HKError.self, "\(written)") { try HKQuantity(unit: scalar, doubleValue: 1).value(in: .percent()) }
    }

    /// A percent stays a fraction of 0.0–1.0 in its own unit, however it was spelled.
    @Test(arguments: [0.0, 0.5, 0.97, 1.0, -0.0, 1e-300])
    func aPercentKeepsItsValue(_ value: Double) throws {
        let quantity = HKQuantity(unit: .percent(), doubleValue: value)
        #expect(try quantity.value(in: .percent()) == value)
        #expect(try quantity.value(in: HKUnit.parse("%")) == value)
    }

    /// Every quantity type measured in percent (body fat, oxygen saturation, blood alcohol …)
    /// is compatible with percent and not with count, and the reverse for count types.
    @Test func percentTypesAreNotCountTypes() throws {
        let percentTypes = QuantityTypeDefinition.all.filter { $0.canonicalUnit == "%" }
            .compactMap { HKObjectType.quantityType(forIdentifier: $0.identifier) }
        #expect(percentTypes.count >= 8, "\(percentTypes.map(\.identifier))")
        for type in percentTypes {
            #expect(type.is(compatibleWith: .percent()) && !type.is(compatibleWith: .count()), "\(type.identifier)")
        }
        let steps = try #require(HKObjectType.quantityType(forIdentifier: .stepCount))
        #expect(steps.is(compatibleWith: .count()) && !steps.is(compatibleWith: .percent()))
    }

    /// Compound units carry percent's dimension: %/s is not count/s (nor Hz).
    @Test func compoundPercentUnitsStayApartFromCounts() {
        #expect(!HKUnit(from: "%/s").isCompatible(with: HKUnit(from: "count/s")))
        #expect(!HKUnit(from: "%/s").isCompatible(with: .hertz()))
        #expect(HKUnit(from: "%/s").isCompatible(with: HKUnit(from: "%/min")))
    }
}
