import Foundation
import Testing
@testable import HealthKit

/// Apple declares `HKActivitySummary`, `HKWorkoutActivity`, `HKStatistics`, `HKVisionPrism`,
/// `HKGlassesLensSpecification`, `HKContactsLensSpecification`, `HKAudiogramSensitivityTest` and
/// `HKAudiogramSensitivityPointClampingRange` `<NSSecureCoding, NSCopying>` (their headers, iOS 18
/// SDK). NSCopying's contract (developer.apple.com/documentation/foundation/nscopying): the copy is
/// "a new instance that's a copy of the receiver" — for a class with settable state, changing the
/// copy must not change the original; an immutable class may return itself.
@Suite(.timeLimit(.minutes(10))) struct ValueCopyingTests {
    @Test func aCopiedActivitySummaryIsIndependentOfItsOriginal() throws {
        let original = HKActivitySummary()
        original.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 320)
        original.appleStandHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
        original.activityMoveMode = .appleMoveTime
        let copy = try #require(original.copy() as? HKActivitySummary)
        #expect(copy !== original)
        #expect(copy.activeEnergyBurned == original.activeEnergyBurned && copy.appleStandHoursGoal == original.appleStandHoursGoal)
        #expect(copy.activityMoveMode == .appleMoveTime)

        copy.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 1)
        copy.activityMoveMode = .activeEnergy
        #expect(original.activeEnergyBurned.doubleValue(for: .kilocalorie()) == 320)
        #expect(original.activityMoveMode == .appleMoveTime)
        original.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: 45)
        #expect(copy.appleExerciseTime.doubleValue(for: .minute()) == 0)
    }

    /// Why the tests above call `copy()` rather than assign to an `@NSCopying` property: on Linux
    /// the compiler accepts `@NSCopying` but its setter does not copy (no Objective-C runtime),
    /// for Foundation's own classes too. README's "What Linux forces" says so; this test fails,
    /// and the note must change, the day the setter copies.
    @Test func anNSCopyingPropertyKeepsTheAssignedObjectOnLinux() {
        final class RingsModel {
            @NSCopying var summary = HKActivitySummary()
        }
        let model = RingsModel()
        let original = HKActivitySummary()
        model.summary = original
        #expect(model.summary === original)
    }

    /// A fetched summary's day (and the time zone it was computed in) is copied too.
    @Test func aCopiedSummaryKeepsItsDay() throws {
        let day = try #require(CalendarDay(year: 2026, month: 3, day: 14))
        let zone = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
        let fetched = HKActivitySummary(ActivitySummaryRecord(day: day, totals: ActivityTotals(standHours: 9)), timeZone: zone)
        let copy = try #require(fetched.copy() as? HKActivitySummary)
        let calendar = Calendar(identifier: .gregorian)
        #expect(copy.dateComponents(for: calendar).day == 14)
        #expect(copy.dateComponents(for: calendar) == fetched.dateComponents(for: calendar))
        #expect(copy.appleStandHours.doubleValue(for: .count()) == 9)
    }

    /// The activity is equal to its copy (same UUID) but holds its own configuration: a change made
    /// through one never shows through the other.
    @Test func aCopiedWorkoutActivityHasItsOwnConfiguration() throws {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .swimming
        configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
        let original = HKWorkoutActivity(workoutConfiguration: configuration, start: Date(timeIntervalSince1970: 1_700_000_000),
                                         end: nil, metadata: ["lane": 3])
        let copy = try #require(original.copy() as? HKWorkoutActivity)
        #expect(copy == original && copy.uuid == original.uuid && copy.startDate == original.startDate)
        #expect(copy.metadata?["lane"] as? Int == 3)

        copy.workoutConfiguration.activityType = .running
        #expect(original.workoutConfiguration.activityType == .swimming)
        #expect(copy.workoutConfiguration.lapLength == original.workoutConfiguration.lapLength)
    }

    /// Immutable values: the copy is equal (here the same object, as Foundation does for NSString).
    @Test func immutableValuesCopyAsThemselves() throws {
        let statistics = StatisticsSummaryCodingTests.statistics(separate: true)
        #expect(try #require(statistics.copy() as? HKStatistics) === statistics)
        let prism = AudiogramVisionCodingTests.prism
        #expect(try #require(prism.copy() as? HKVisionPrism) == prism)
        let glasses = HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: -1), cylinder: nil, axis: nil,
                                                 addPower: nil, vertexDistance: nil, prism: prism, farPupillaryDistance: nil,
                                                 nearPupillaryDistance: nil)
        #expect(try #require(glasses.copy() as? HKGlassesLensSpecification) == glasses)
        let contacts = HKContactsLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: 2), cylinder: nil, axis: nil,
                                                   addPower: nil, baseCurve: nil, diameter: nil)
        #expect(try #require(contacts.copy() as? HKContactsLensSpecification) == contacts)
        let test = try AudiogramVisionCodingTests.point().tests[0]
        #expect(try #require(test.copy() as? HKAudiogramSensitivityTest) == test)
        let range = try #require(test.clampingRange)
        #expect(try #require(range.copy() as? HKAudiogramSensitivityPointClampingRange) == range)
    }
}
