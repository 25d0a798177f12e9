import Foundation
import Testing
@testable import HealthKit

/// Apps persist units, quantities and types the way they persist anchors: Apple's `HKUnit`,
/// `HKQuantity` and `HKObjectType` (with every subclass) are `NSObject`s conforming to
/// `NSSecureCoding` (https://developer.apple.com/documentation/healthkit/hkquantity, /hkunit,
/// /hkobjecttype; the declarations read `class HKUnit : NSObject, NSCopying, NSSecureCoding` in
/// Apple's API diffs, https://developer.apple.com/library/ios/releasenotes/General/iOS91APIDiffs/Swift/HealthKit.html),
/// archived with `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true)` and
/// read back with `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`. Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct UnitQuantityTypeCodingTests {
    /// An archive of `object` whose string `old` (a field's value) is replaced by `new`: what a
    /// tampered file on disk looks like to the unarchiver.
    private func tampered(_ object: NSObject, replacing old: String, with new: Any) throws -> Data {
        let archived = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
        var plist = try #require(try PropertyListSerialization.propertyList(from: archived, format: nil) as? [String: Any])
        var objects = try #require(plist["$objects"] as? [Any])
        let index = try #require(objects.firstIndex { ($0 as? String) == old })
        objects[index] = new
        plist["$objects"] = objects
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    static let units: [HKUnit] = [
        .count(), .count().unitDivided(by: .minute()), .gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci)),
        .moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter()),
        .degreeCelsius(), .degreeFahrenheit(), .decibelAWeightedSoundPressureLevel(), .percent(),
        .gramUnit(with: .kilo).unitMultiplied(by: .meter()).unitDivided(by: .second().unitRaised(toPower: 2)),
        .literUnit(with: .milli).unitDivided(by: .minute().unitMultiplied(by: .gramUnit(with: .kilo))),
        .internationalUnit(), .appleEffortScore(), .meter().unitRaised(toPower: 24),
    ]

    @Test(arguments: units) func aUnitSurvivesSecureKeyedArchiving(_ unit: HKUnit) throws {
        let restored = try SecureArchive.roundTrip(unit)
        #expect(restored == unit && restored.isEqual(unit) && restored.hash == unit.hash)
        #expect(restored.unitString == unit.unitString)
        #expect(Set([unit, restored]).count == 1)
    }

    /// A unit parsed from Apple's printed string `==` the one built with the factories, and an
    /// archive of either reads back as the other.
    @Test func aUnitFromApplesStringEqualsTheBuiltOneThroughAnArchive() throws {
        let built = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
        let parsed = HKUnit(from: "mmol<180.1558800000541>/L")
        #expect(parsed == built && parsed.hash == built.hash)
        #expect(try SecureArchive.roundTrip(parsed) == built)
        #expect(try SecureArchive.roundTrip(built) == parsed)
        #expect([built: "glucose"][try SecureArchive.roundTrip(parsed)] == "glucose")
    }

    @Test func equalityIsStructuralAndAgreesWithHashAndSets() {
        let written = [HKUnit(from: "kg*m/s^2"), HKUnit(from: "m·kg/s^2"), HKUnit(from: "kg.m.s^-2")]
        #expect(Set(written).count == 1)
        #expect(written.allSatisfy { $0 == written[0] && $0.isEqual(written[0]) && $0.hash == written[0].hash })
        #expect(HKUnit.gram() != HKUnit.gramUnit(with: .kilo))
        #expect(!HKUnit.gram().isEqual(HKQuantity(unit: .gram(), doubleValue: 1)))
        #expect(HKUnit(from: "furlong") == HKUnit(from: "furlong"))
    }

    /// The archive holds the unit's text; text that is not a unit (an invalid unit made here, or
    /// a tampered archive) decodes as nothing. Apple has no invalid units to archive.
    @Test func anArchivedInvalidUnitOrTamperedUnitStringIsNoUnit() throws {
        let invalid = HKUnit(from: "furlong")
        let archived = try NSKeyedArchiver.archivedData(withRootObject: invalid, requiringSecureCoding: true)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: archived)) == nil)
        let tamperedUnit = try tampered(HKUnit.count().unitDivided(by: .minute()), replacing: "count/min", with: "count/min^")
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: tamperedUnit)) == nil)
        let numberForText = try tampered(HKUnit.percent(), replacing: "%", with: 7)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: numberForText)) == nil)
    }

    static let values: [Double] = [72, 0, -0.0, -40, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.1 + 0.2, .infinity]

    @Test(arguments: values) func aQuantityKeepsItsUnitAndExactValue(_ value: Double) throws {
        let quantity = HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: value)
        let restored = try SecureArchive.roundTrip(quantity)
        #expect(restored == quantity && restored.hash == quantity.hash)
        #expect(restored.doubleValue(for: .count().unitDivided(by: .minute())).bitPattern == value.bitPattern)
        #expect(restored.unit == quantity.unit)
        #expect(Set([quantity, restored]).count == 1)
    }

    /// NaN is not equal to itself (as `Double`), so only its NaN-ness can survive.
    @Test func aNaNQuantityStaysNaN() throws {
        let restored = try SecureArchive.roundTrip(HKQuantity(unit: .gram(), doubleValue: .nan))
        #expect(restored.doubleValue(for: .gram()).isNaN)
    }

    @Test func aQuantityKeepsTheUnitItWasWrittenIn() throws {
        let kilometres = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1)
        let restored = try SecureArchive.roundTrip(kilometres)
        #expect(restored.unit == .meterUnit(with: .kilo))
        #expect(restored != HKQuantity(unit: .meter(), doubleValue: 1000))
        #expect(restored.compare(HKQuantity(unit: .meter(), doubleValue: 1000)) == .orderedSame)
    }

    @Test func aTamperedQuantityIsNoQuantity() throws {
        let quantity = HKQuantity(unit: .percent(), doubleValue: 0.5)
        let textForValue = try tampered(quantity, replacing: "%", with: "%%")
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantity.self, from: textForValue)) == nil)
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(NSString(string: "%"), forKey: "unit")
        archiver.encode(NSString(string: "0.5"), forKey: "doubleValue")
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = true
        #expect(HKQuantity(coder: unarchiver) == nil)
        let noValue = NSKeyedArchiver(requiringSecureCoding: true)
        noValue.encode(NSString(string: "%"), forKey: "unit")
        noValue.finishEncoding()
        let short = try NSKeyedUnarchiver(forReadingFrom: noValue.encodedData)
        short.requiresSecureCoding = true
        #expect(HKQuantity(coder: short) == nil)
    }

    /// Every registered type, read back both as `HKObjectType` and as its own class, is equal to
    /// the registry's, of the same class, with the registry's properties.
    @Test func everyTypeSurvivesSecureKeyedArchiving() throws {
        for type in HKObjectType.allTypes {
            let restored = try SecureArchive.roundTrip(type, as: HKObjectType.self)
            #expect(restored == type && restored.hash == type.hash, "\(type.identifier)")
            #expect(ObjectIdentifier(Swift.type(of: restored)) == ObjectIdentifier(Swift.type(of: type)), "\(type.identifier)")
            #expect(Set([type, restored]).count == 1)
        }
        let heartRate = try SecureArchive.roundTrip(HKQuantityType(.heartRate))
        #expect(heartRate.canonicalUnit == HKQuantityType(.heartRate).canonicalUnit && heartRate.canonicalUnit.isValid)
        #expect(heartRate.aggregationStyle == HKQuantityType(.heartRate).aggregationStyle)
        #expect(try SecureArchive.roundTrip(HKCategoryType(.sleepAnalysis)).allowedValues == HKCategoryType(.sleepAnalysis).allowedValues)
        #expect(try SecureArchive.roundTrip(HKObjectType.workoutType()) == HKObjectType.workoutType())
        #expect(try SecureArchive.roundTrip(HKSeriesType.heartbeat()) == HKSeriesType.heartbeat())
        #expect(try SecureArchive.roundTrip(HKCorrelationType(.bloodPressure), as: HKSampleType.self) == HKCorrelationType(.bloodPressure))
    }

    /// Types compare by identifier, whatever instance: a convenience-initialized one, the
    /// registry's, a decoded one; dictionaries keyed by types find each other's.
    @Test func typesCompareByIdentifier() throws {
        let steps: HKObjectType = HKQuantityType(.stepCount)
        let registered = try #require(HKObjectType.quantityType(forIdentifier: .stepCount))
        #expect(steps == registered && steps.isEqual(registered) && steps.hash == registered.hash)
        #expect(steps !== registered)
        #expect([registered: 1][try SecureArchive.roundTrip(steps)] == 1)
        #expect(steps != HKQuantityType(.heartRate))
        #expect(!steps.isEqual(HKUnit.count()))
    }

    /// An identifier the registry does not know, one registered as another class, or a field of
    /// the wrong kind: nothing, as a secure-decoding failure (Foundation throws "failed to decode"
    /// here, as Apple's does; `try?` makes either answer nil).
    @Test func anUnknownOrMismatchedIdentifierIsNoType() throws {
        // The control: an edited archive naming another registered quantity type decodes as it.
        let heartRate = try tampered(HKQuantityType(.stepCount), replacing: HKQuantityTypeIdentifier.stepCount.rawValue,
                                     with: HKQuantityTypeIdentifier.heartRate.rawValue)
        #expect(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantityType.self, from: heartRate) == HKQuantityType(.heartRate))
        let unknown = try tampered(HKQuantityType(.stepCount), replacing: HKQuantityTypeIdentifier.stepCount.rawValue,
                                   with: "HKQuantityTypeIdentifierFurlongsPerFortnight")
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantityType.self, from: unknown)) == nil)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKObjectType.self, from: unknown)) == nil)
        // A category identifier in a quantity type's archive.
        let mismatched = try tampered(HKQuantityType(.stepCount), replacing: HKQuantityTypeIdentifier.stepCount.rawValue,
                                      with: HKCategoryTypeIdentifier.sleepAnalysis.rawValue)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKObjectType.self, from: mismatched)) == nil)
        let workoutAsSeries = try tampered(HKSeriesType.heartbeat(), replacing: HKSeriesType.heartbeat().identifier,
                                           with: HKObjectType.workoutType().identifier)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKSampleType.self, from: workoutAsSeries)) == nil)
        let number = try tampered(HKObjectType.workoutType(), replacing: HKObjectType.workoutType().identifier, with: 3)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKWorkoutType.self, from: number)) == nil)
    }

    @Test func anArchiveOfSomethingElseIsNoUnitQuantityOrType() throws {
        let text = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "count/min"), requiringSecureCoding: true)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: text)) == nil)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantity.self, from: text)) == nil)
        #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKObjectType.self, from: text)) == nil)
    }

    /// They stay `Sendable` (checked at compile time) across the `NSObject` change.
    @Test func theyStaySendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(HKUnit.self)
        requireSendable(HKQuantity.self)
        requireSendable(HKObjectType.self)
        requireSendable(HKQuantityType.self)
        requireSendable(HKSampleType.self)
    }
}
