import Foundation
import HealthModel
import HealthWire
import Testing

/// Activity summaries through the whole stack: a real healthd, apps as sandboxed processes, the
/// user's goals and move mode set with healthctl. Days are Berlin's around the spring DST change
/// (2026-03-29 is 23 hours; its midnight is `m` = 2026-03-28T23:00Z).
@Suite(.timeLimit(.minutes(10)), .serialized) struct ActivitySummaryEndToEndTests {
    let energy = "HKQuantityTypeIdentifierActiveEnergyBurned"
    let standHour = "HKCategoryTypeIdentifierAppleStandHour"
    let exerciseTime = "HKQuantityTypeIdentifierAppleExerciseTime"
    let summaryType = "HKActivitySummaryTypeIdentifier"
    let m = 1_774_738_800
    let days = ["--from", "2026-03-28", "--to", "2026-03-31", "--zone", "Europe/Berlin"]

    func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    /// A watch app (its bundle identifier sorts first, so ranked first) with 100 kcal over 00:30–01:30; a phone app
    /// with 60 kcal over 23:00–01:00 across midnight. The Apple-computed ring samples no app may
    /// save come from an import of an Apple Health export (the trusted path): 15 exercise minutes
    /// at 00:30 and a stood hour at 01:10. Goals from the 28th: 600 kcal, 30 min, 12 h; move
    /// mode: move time.
    func userData(_ broker: BrokerProcess) async throws {
        let watch = try await broker.installClient("org.test.a-watch")
        let phone = try await broker.installClient("org.test.phone")
        for app in [watch, phone] { try await broker.set(app, "share", energy, allowed: true) }
        for (app, arguments) in [(watch, ["save", energy, "100", "kcal", "\(m + 1_800)", "\(m + 5_400)"]),
                                 (phone, ["save", energy, "60", "kcal", "\(m - 3_600)", "\(m + 3_600)"])] {
            let saved = try await broker.runApp(app, arguments)
            #expect(saved.okValue != nil, "\(saved)")
        }
        try await broker.importRecords([
            .init(exerciseTime, "15", unit: "min", from: date(m + 1_800), to: date(m + 2_700)),
            .init(standHour, "HKCategoryValueAppleStandHourStood", from: date(m + 4_200), to: date(m + 7_200)),
        ])
        let goals = try await broker.healthctl(["activity", "goals", "set", "--move", "600kcal", "--exercise", "30min",
                                                "--stand", "12h", "--from", "2026-03-28"])
        #expect(goals.status == 0, "\(goals)")
        let mode = try await broker.healthctl(["characteristics", "set", "activityMoveMode", "move-time"])
        #expect(mode.status == 0, "\(mode)")
    }

    @Test func aReaderGetsMergedDaysWithTheUsersGoals() async throws {
        let broker = try BrokerProcess()
        try await userData(broker)
        let reader = try await broker.installClient("org.test.reader")
        try await broker.set(reader, "read", summaryType, allowed: true)

        // The 28th: the phone's 23:00–00:00, 30 kcal. The 29th: the watch's 100 and the phone's
        // uncovered 00:00–00:30, 15; 15 exercise minutes and one stood hour (imported). The 30th
        // and 31st have no data.
        let expected = ["summary 2026-03-28 energy=30.0 exercise=0.0 stand=0.0 movetime=0.0 goals=600.0/30.0/12.0/0.0 mode=2",
                        "summary 2026-03-29 energy=115.0 exercise=15.0 stand=1.0 movetime=0.0 goals=600.0/30.0/12.0/0.0 mode=2",
                        "ok 2"]
        let result = try await broker.runApp(reader, ["activity-summaries"] + days)
        #expect(result.lines == expected, "\(result)")
        let viaDescriptor = try await broker.runApp(reader, ["activity-summaries", "--async"] + days)
        #expect(viaDescriptor.lines == expected, "\(viaDescriptor)")

        // The access log records the read, with the samples it was computed from.
        let log = try await broker.healthctl(["log", "--app", reader, "--json"])
        #expect(log.stdout.contains(summaryType), "\(log)")
    }

    @Test func aDeniedReaderSeesOnlyItsOwnSamplesAndNoGoals() async throws {
        let broker = try BrokerProcess()
        try await userData(broker)
        let denied = try await broker.installClient("org.test.denied")
        try await broker.set(denied, "share", energy, allowed: true)
        try await broker.set(denied, "read", summaryType, allowed: false)
        let neverAsked = try await broker.installClient("org.test.neverasked")

        // Nothing of its own yet: no days, byte for byte what an app that never asked gets.
        let empty = try await broker.runApp(denied, ["activity-summaries"] + days)
        #expect(empty.lines == ["ok 0"], "\(empty)")
        #expect(try await broker.runApp(neverAsked, ["activity-summaries"] + days).stdout == empty.stdout)

        // 20 kcal of its own at 10:00–10:30 on the 29th: that day alone, with no goals and the
        // default move mode, though the user set both.
        _ = try await broker.runApp(denied, ["save", energy, "20", "kcal", "\(m + 36_000)", "\(m + 37_800)"])
        let own = try await broker.runApp(denied, ["activity-summaries"] + days)
        #expect(own.lines == ["summary 2026-03-29 energy=20.0 exercise=0.0 stand=0.0 movetime=0.0 goals=0.0/0.0/0.0/0.0 mode=1",
                              "ok 1"], "\(own)")
    }

    @Test func activitySummariesAreRequestableForReadingOnly() async throws {
        let broker = try BrokerProcess()
        // Reading: the SDK's request for the type is valid (decided already, so it returns at once).
        let app = try await broker.installClient("org.test.requester")
        try await broker.set(app, "read", summaryType, allowed: true)
        let requested = try await broker.runApp(app, ["request", "--read", summaryType])
        #expect(requested.lines == ["ok requested"], "\(requested)")

        // Sharing: the SDK cannot even express it (toShare takes sample types); a raw request
        // is refused with HealthKit's message, and what to share instead.
        let raw = try await RawApp.install("org.test.rawsharer", on: broker, grants: [])
        defer { raw.close() }
        let refused = await raw.failure(.requestAuthorization, AuthorizationTypes(share: [summaryType], read: []))
        #expect(refused?.healthKitCode == .errorInvalidArgument, "\(String(describing: refused))")
        #expect(refused?.message.hasPrefix("Authorization to share the following types is disallowed: \(summaryType)") == true,
                "\(String(describing: refused))")
        #expect(refused?.message.contains("activeEnergyBurned") == true, "\(String(describing: refused))")
    }
}
