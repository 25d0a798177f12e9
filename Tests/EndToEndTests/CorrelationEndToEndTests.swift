import Foundation
import HealthModel
import Testing

/// Correlations through the whole stack: apps (e2e-client under health-sandbox) save blood
/// pressure and food with HKCorrelation and read them with HKCorrelationQuery and HKSampleQuery;
/// the broker checks the rules and decides visibility from the contained types' grants.
@Suite(.timeLimit(.minutes(10)), .serialized) struct CorrelationEndToEndTests {
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue

    func allow(_ broker: BrokerProcess, _ app: String, _ access: String, _ types: [String]) async throws {
        for type in types { try await broker.set(app, access, type, allowed: true) }
    }

    /// `correlation …` / `object …` lines as [source: [[type: value]]], in order.
    func readings(_ result: ProcessResult) -> [(source: String, values: [String: Double])] {
        var readings: [(source: String, values: [String: Double])] = []
        for line in result.lines {
            let fields = line.split(separator: " ").map(String.init)
            if fields.first == "correlation" { readings.append((fields[3], [:])) }
            if fields.first == "object", !readings.isEmpty { readings[readings.count - 1].values[fields[1]] = Double(fields[2]) }
        }
        return readings
    }

    @Test func aBloodPressureReadingIsSavedWholeAndReadThreeWays() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.cuff")
        let reader = try await broker.installClient("org.test.chart")
        try await allow(broker, writer, "share", [Self.systolic, Self.diastolic])
        try await allow(broker, reader, "read", [Self.systolic, Self.diastolic])

        let saved = try await broker.runApp(writer, ["save-blood-pressure", "120", "80", "1700000000"])
        let uuids = try #require(saved.okValue, "\(saved)").split(separator: " ").map(String.init)
        #expect(uuids.count == 3 && Set(uuids).count == 3)

        let queried = try await broker.runApp(reader, ["query-correlations", Self.bloodPressure])
        #expect(queried.lines.first == "correlation \(uuids[0]) 1700000000 \(writer)", "\(queried)")
        #expect(readings(queried).map(\.values) == [[Self.diastolic: 80, Self.systolic: 120]])
        let viaSampleQuery = try await broker.runApp(reader, ["query-correlations", Self.bloodPressure, "--sample-query"])
        #expect(viaSampleQuery.stdout == queried.stdout)
        // The halves are ordinary samples too, with the UUIDs the save reported.
        let systolicSamples = try await broker.runApp(reader, ["query", Self.systolic])
        #expect(systolicSamples.samples.map(\.value) == [120])
        #expect(systolicSamples.stdout.contains(uuids[1]))
    }

    @Test func visibilityFollowsTheGrantsOfTheContainedTypes() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.writer")
        let halfReader = try await broker.installClient("org.test.half")
        let denied = try await broker.installClient("org.test.denied")
        for app in [writer, halfReader, denied] { try await allow(broker, app, "share", [Self.systolic, Self.diastolic]) }
        try await allow(broker, halfReader, "read", [Self.systolic])
        try await broker.set(halfReader, "read", Self.diastolic, allowed: false)
        for type in [Self.systolic, Self.diastolic] { try await broker.set(denied, "read", type, allowed: false) }

        #expect(try await broker.runApp(writer, ["save-blood-pressure", "130", "85", "1700000000"]).okValue != nil)
        #expect(try await broker.runApp(halfReader, ["save-blood-pressure", "110", "70", "1700000600"]).okValue != nil)
        #expect(try await broker.runApp(denied, ["save-blood-pressure", "140", "90", "1700001200"]).okValue != nil)

        // Allowed systolic only: its own reading, not the writer's (which would reveal a hidden
        // diastolic sample) — yet every systolic sample through a sample query.
        let half = try await broker.runApp(halfReader, ["query-correlations", Self.bloodPressure])
        #expect(readings(half).map(\.source) == [halfReader], "\(half)")
        #expect(try await broker.runApp(halfReader, ["query", Self.systolic]).samples.map(\.value) == [130, 110, 140])
        #expect(try await broker.runApp(halfReader, ["query", Self.diastolic]).samples.map(\.value) == [70])
        // Denied both: exactly what a store holding only its own reading would answer.
        let deniedView = try await broker.runApp(denied, ["query-correlations", Self.bloodPressure])
        #expect(readings(deniedView).map(\.values) == [[Self.systolic: 140, Self.diastolic: 90]])
        // The user sees everything.
        let browsed = try await broker.healthctl(["samples", "bloodPressure", "--json"])
        #expect(browsed.stdout.split(separator: "\n").count == 3, "\(browsed)")
    }

    @Test func samplePredicatesPickCorrelationsByTheirSamples() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.bp")
        try await allow(broker, app, "share", [Self.systolic, Self.diastolic])
        try await allow(broker, app, "read", [Self.systolic, Self.diastolic])
        for (high, low, time) in [(118, 76, 1_700_000_000), (145, 88, 1_700_000_600), (128, 95, 1_700_001_200)] {
            #expect(try await broker.runApp(app, ["save-blood-pressure", "\(high)", "\(low)", "\(time)"]).okValue != nil)
        }
        // Systolic above 140 mmHg: the second reading. Above 18 kPa (135 mmHg) is the same test.
        let high = try await broker.runApp(app, ["query-correlations", Self.bloodPressure, "--above", Self.systolic, "140", "mmHg"])
        #expect(readings(high).map { $0.values[Self.systolic] } == [145], "\(high)")
        let kPa = try await broker.runApp(app, ["query-correlations", Self.bloodPressure, "--above", Self.systolic, "18", "kPa"])
        #expect(readings(kPa).map { $0.values[Self.systolic] } == [145])
        // Systolic above 140 or diastolic above 90: the second and third.
        let either = try await broker.runApp(app, ["query-correlations", Self.bloodPressure, "--above", Self.systolic, "140", "mmHg",
                                                  "--above", Self.diastolic, "90", "mmHg"])
        #expect(readings(either).map { $0.values[Self.systolic] } == [145, 128])
        // A unit that cannot measure pressure is the app's error, named.
        let wrongUnit = try await broker.runApp(app, ["query-correlations", Self.bloodPressure, "--above", Self.systolic, "1", "kg"])
        #expect(wrongUnit.errorCode == 3, "\(wrongUnit)")
        #expect(wrongUnit.stdout.contains("unit kg is not compatible with \(Self.systolic)"))
    }

    @Test func savingNeedsShareForEveryContainedTypeAndFoodWorksToo() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.meals")
        try await allow(broker, app, "share", [Self.systolic])
        let missing = try await broker.runApp(app, ["save-blood-pressure", "120", "80", "1700000000"])
        #expect(missing.errorCode == 5, "\(missing)")  // errorAuthorizationNotDetermined: diastolic
        #expect(missing.stdout.contains(Self.diastolic))

        let energy = HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue
        let protein = HKQuantityTypeIdentifier.dietaryProtein.rawValue
        try await allow(broker, app, "share", [energy, protein])
        try await allow(broker, app, "read", [energy, protein])
        let meal = try await broker.runApp(app, ["save-food", "1700000000", "1700001800", "--item", energy, "2092", "kJ",
                                                 "--item", protein, "30", "g"])
        #expect(meal.okValue != nil, "\(meal)")
        let meals = try await broker.runApp(app, ["query-correlations", HKCorrelationTypeIdentifier.food.rawValue])
        #expect(readings(meals).map(\.values) == [[energy: 500, protein: 30]], "\(meals)")
    }

    @Test func theBrokerRefusesABrokenCorrelationFromAClientThatSkipsTheSDK() async throws {
        let broker = try BrokerProcess()
        let raw = try await RawApp.install("org.test.raw", on: broker, grants: [("share", Self.systolic), ("share", Self.diastolic)])
        defer { raw.client.close() }
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        func half(_ type: String, _ value: Double, at date: Date = time) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: date, endDate: date, value: .quantity(value, unit: "mmHg"))
        }
        func reading(_ objects: [SampleRecord]) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: Self.bloodPressure, startDate: time, endDate: time, value: .correlation(objects))
        }
        let onlySystolic = await raw.saveRefusal([reading([half(Self.systolic, 120)])])
        #expect(onlySystolic?.healthKitCode == .errorInvalidArgument)
        #expect(onlySystolic?.message.contains("holds exactly one systolic and one diastolic sample, got 1") == true, "\(String(describing: onlySystolic))")
        let apart = await raw.saveRefusal([reading([half(Self.systolic, 120), half(Self.diastolic, 80, at: time.addingTimeInterval(5))])])
        #expect(apart?.message.contains("must have the correlation's start and end dates") == true, "\(String(describing: apart))")
        #expect(await raw.saveRefusal([reading([half(Self.systolic, 120), half(Self.diastolic, 80)])]) == nil)
        let stored = try await broker.healthctl(["samples", Self.systolic, "--json"])
        #expect(stored.stdout.split(separator: "\n").count == 1, "only the valid reading was stored: \(stored)")
    }
}
