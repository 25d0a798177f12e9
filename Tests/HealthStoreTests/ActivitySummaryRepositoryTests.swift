import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Activity summaries on a store: the samples one scope admits, merged by the source order, on
/// Berlin's days; goals and move mode shown only where the scope admits the user's own data.
@Suite(.timeLimit(.minutes(10))) struct ActivitySummaryRepositoryTests {
    static let watch = SourceRecord(bundleIdentifier: "org.example.a-watch", name: "Watch", version: "1")
    static let phone = SourceRecord(bundleIdentifier: "org.example.phone", name: "Phone", version: "1")
    /// 2026-03-29 00:00 in Berlin (the 23-hour DST day), seconds since 1970.
    static let midnight = 1_774_738_800.0
    static let march28 = CalendarDay(year: 2026, month: 3, day: 28)!
    static let march29 = CalendarDay(year: 2026, month: 3, day: 29)!
    static let berlinDays = ActivitySummaryQuerySpec(firstDay: march28, lastDay: CalendarDay(year: 2026, month: 3, day: 31)!,
                                                     timeZoneIdentifier: "Europe/Berlin")

    /// A sample from `start` to `end` seconds after the DST day's midnight.
    static func sample(_ type: String, _ start: Double, _ end: Double, _ value: SampleRecord.Value) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: Date(timeIntervalSince1970: midnight + start),
                     endDate: Date(timeIntervalSince1970: midnight + end), value: value)
    }

    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let exercise = HKQuantityTypeIdentifier.appleExerciseTime.rawValue
    static let standHour = HKCategoryTypeIdentifier.appleStandHour.rawValue

    /// The watch leads the default order (its bundle identifier sorts first): 100 kcal over
    /// 00:30–01:30, 20 min of exercise, one stood hour. The phone: 60 kcal over 23:00–01:00 (across midnight), a stood
    /// hour in the watch's hour and one of its own.
    static func database() async throws -> HealthDatabase {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([
            sample(energy, 1_800, 5_400, .quantity(100, unit: "kcal")),
            sample(exercise, 36_000, 37_200, .quantity(20, unit: "min")),
            sample(standHour, 4_200, 7_200, .category(HKCategoryValueAppleStandHour.stood.rawValue)),
        ], source: watch)
        _ = try await database.samples.insert([
            sample(energy, -3_600, 3_600, .quantity(60, unit: "kcal")),
            sample(standHour, 4_500, 4_600, .category(HKCategoryValueAppleStandHour.stood.rawValue)),
            sample(standHour, 40_000, 40_100, .category(HKCategoryValueAppleStandHour.stood.rawValue)),
        ], source: phone)
        return database
    }

    @Test func everySourceMergedByTheDefaultOrder() async throws {
        let database = try await Self.database()
        let outcome = try database.activitySummaries.summaries(Self.berlinDays, scope: .allSources)
        // The 28th: the phone's 23:00–00:00 share, 30 kcal. The 29th: the watch's 100 and the
        // phone's uncovered 00:00–00:30, 15; 20 min of exercise; hours 1 and 11 stood.
        #expect(outcome.summaries.map(\.day) == [Self.march28, Self.march29])
        #expect(outcome.summaries[0].totals == ActivityTotals(activeEnergyBurned: 30))
        #expect(outcome.summaries[1].totals == ActivityTotals(activeEnergyBurned: 115, exerciseMinutes: 20, standHours: 2))
        #expect(outcome.sampleCount == 6)
    }

    @Test func anOwnSamplesScopeSeesOnlyItsSamplesAndNoGoals() async throws {
        let database = try await Self.database()
        try database.activityGoals.apply(ActivityGoalUpdate(effectiveFrom: Self.march28, moveKilocalories: 600, standHours: 12))
        try database.characteristics.set(CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.activityMoveMode.rawValue,
                                                               value: .enumeration(HKActivityMoveMode.appleMoveTime.rawValue)))
        let outcome = try database.activitySummaries.summaries(Self.berlinDays, scope: .ownSamples(appID: Self.phone.bundleIdentifier))
        // The phone alone: 30 + 30 kcal, hours 1 and 11; the user's goals and move mode hidden.
        #expect(outcome.summaries == [
            ActivitySummaryRecord(day: Self.march28, totals: ActivityTotals(activeEnergyBurned: 30)),
            ActivitySummaryRecord(day: Self.march29, totals: ActivityTotals(activeEnergyBurned: 30, standHours: 2)),
        ])
        let stranger = try database.activitySummaries.summaries(Self.berlinDays, scope: .ownSamples(appID: "org.example.none"))
        #expect(stranger.summaries.isEmpty)
        #expect(stranger.sampleCount == 0)
    }

    @Test func pastDaysKeepTheGoalsThatAppliedThen() async throws {
        let database = try await Self.database()
        try database.activityGoals.apply(ActivityGoalUpdate(effectiveFrom: Self.march28, moveKilocalories: 600,
                                                            exerciseMinutes: 30, standHours: 12))
        try database.activityGoals.apply(ActivityGoalUpdate(effectiveFrom: Self.march29, moveKilocalories: 700))
        try database.characteristics.set(CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.activityMoveMode.rawValue,
                                                               value: .enumeration(HKActivityMoveMode.appleMoveTime.rawValue)))
        let summaries = try database.activitySummaries.summaries(Self.berlinDays, scope: .allSources).summaries
        #expect(summaries.map(\.goals) == [ActivityGoals(moveKilocalories: 600, exerciseMinutes: 30, standHours: 12),
                                           ActivityGoals(moveKilocalories: 700, exerciseMinutes: 30, standHours: 12)])
        #expect(summaries.map(\.moveMode) == [.appleMoveTime, .appleMoveTime])
    }

    @Test func aWindowedGrantShowsGoalsOnlyForDaysInsideItsWindow() async throws {
        let database = try await Self.database()
        try database.activityGoals.apply(ActivityGoalUpdate(effectiveFrom: Self.march28, standHours: 12))
        // The window opens at the 29th's midnight: the 28th is computed from the phone's own
        // samples only and shows no goals; the 29th sees every source and the goals.
        let scope = ReadScope.recentWindow(appID: Self.phone.bundleIdentifier, since: Date(timeIntervalSince1970: Self.midnight))
        let summaries = try database.activitySummaries.summaries(Self.berlinDays, scope: scope.visibility).summaries
        #expect(summaries.map(\.goals.standHours) == [0, 12])
        #expect(summaries.map(\.totals.activeEnergyBurned) == [30, 115])
    }

    @Test func withoutDaysTheSummariesRunFromTheFirstToTheLastDayWithData() async throws {
        let database = try await Self.database()
        let spec = ActivitySummaryQuerySpec(timeZoneIdentifier: "Europe/Berlin")
        #expect(try database.activitySummaries.summaries(spec, scope: .allSources).summaries.map(\.day) == [Self.march28, Self.march29])
        // In UTC the phone's 23:00 CET start is 22:00Z on the 28th, and the 29th's data starts
        // at 23:30Z on the 28th: both days are the 28th, except the exercise and the late hour.
        let utc = ActivitySummaryQuerySpec(firstDay: Self.march29, timeZoneIdentifier: "UTC")
        #expect(try database.activitySummaries.summaries(utc, scope: .allSources).summaries.map(\.day) == [Self.march29])
    }

    @Test func requestErrorsComeBeforeAnyRead() throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        for spec in [ActivitySummaryQuerySpec(timeZoneIdentifier: "Mars/Olympus"),
                     ActivitySummaryQuerySpec(firstDay: Self.march29, lastDay: Self.march28, timeZoneIdentifier: "UTC")] {
            #expect(throws: HKError.self) { try database.activitySummaries.summaries(spec, scope: .allSources) }
        }
    }
}
