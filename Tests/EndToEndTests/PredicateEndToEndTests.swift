import Foundation
import HealthModel
import Testing

/// Device, metadata, quantity and category predicates through the whole stack (apps are
/// e2e-client under health-sandbox), with expectations worked out by hand; and devices and
/// source revisions as another app reads them back.
@Suite(.timeLimit(.minutes(10)), .serialized) struct PredicateEndToEndTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
    static let t0 = 1_700_000_000

    /// Heart rates 60, 75, 90, 120, 150 count/min (stored as 1, 1.25, 1.5, 2, 2.5 count/s), a
    /// minute apart: two with metadata, two from devices, one plain. Sleep values 0…4.
    func populate(_ broker: BrokerProcess, _ app: String) async throws {
        let t = Self.t0
        let saves: [[String]] = [
            ["save", Self.heartRate, "60", "count/min", "\(t)", "\(t)", "--meta", "effort=number:3", "--meta", "note=string:rest"],
            ["save", Self.heartRate, "75", "count/min", "\(t + 60)", "\(t + 60)", "--meta", "effort=number:7", "--meta", "note=string:run"],
            ["save-from-device", Self.heartRate, "90", "count/min", "\(t + 120)", "Watch", "Acme", "W1", "h1", "f1", "s1", "local-1", "udi-1"],
            ["save-from-device", Self.heartRate, "120", "count/min", "\(t + 180)", "Strap", "Acme", "S2", "h2", "f2", "s2", "local-2", "udi-2"],
            ["save", Self.heartRate, "150", "count/min", "\(t + 240)", "\(t + 240)"],
        ] + (0...4).map { ["save-category", Self.sleep, "\($0)", "\(t + $0 * 600)", "\(t + $0 * 600 + 600)"] }
        for arguments in saves {
            let saved = try await broker.runApp(app, arguments)
            #expect(saved.okValue != nil, "\(arguments): \(saved)")
        }
    }

    func values(_ broker: BrokerProcess, _ app: String, _ type: String, _ filters: [String]) async throws -> [Double] {
        let result = try await broker.runApp(app, ["query-matching", type] + filters)
        #expect(result.okValue != nil, "\(filters): \(result)")
        return result.samples.map(\.value)
    }

    @Test func predicatesSelectWhatTheySay() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.filters")
        for type in [Self.heartRate, Self.sleep] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        try await populate(broker, app)
        let hr = Self.heartRate
        let expectations: [([String], [Double])] = [
            (["--device", HKDevicePropertyKeyName, "Watch"], [1.5]),
            (["--device", HKDevicePropertyKeyManufacturer, "Acme"], [1.5, 2]),
            (["--device", HKDevicePropertyKeyUDIDeviceIdentifier, "udi-2,udi-9"], [2]),
            (["--device", HKDevicePropertyKeyName, "watch"], []),                      // exact, case-sensitive
            (["--has-meta", "effort"], [1, 1.25]),
            (["--has-meta", "x' OR 1=1 --"], []),                                      // a key is a bound value
            (["--meta", "effort", "gt", "number:5"], [1.25]),
            (["--meta", "note", "ne", "string:run"], [1, 1.5, 2, 2.5]),                // also those without a note (nil != "run")
            (["--meta-in", "note", "string:run,string:walk"], [1.25]),
            (["--meta", "effort", "eq", "string:3"], []),                              // a string is not a number
            (["--quantity", "gt", "1.5", "count/s"], [2, 2.5]),                        // above 90 count/min
            (["--quantity", "le", "75", "count/min"], [1, 1.25]),
            (["--quantity", "ge", "90", "count/min", "--device", HKDevicePropertyKeyManufacturer, "Acme"], [1.5, 2]),
            (["--not", "--quantity", "lt", "100", "count/min"], [2, 2.5]),
            (["--not", "--has-meta", "effort"], [1.5, 2, 2.5]),
        ]
        for (filters, expected) in expectations {
            #expect(try await values(broker, app, hr, filters) == expected, "\(filters)")
        }
        #expect(try await values(broker, app, Self.sleep, ["--category", "ge", "3"]) == [3, 4])
        #expect(try await values(broker, app, Self.sleep, ["--category", "ne", "2", "--category", "lt", "4"]) == [0, 1, 3])

        let wrongUnit = try await broker.runApp(app, ["query-matching", hr, "--quantity", "gt", "1", "kg"])
        #expect(wrongUnit.errorCode == 3, "\(wrongUnit)")
        #expect(wrongUnit.stdout.contains("the predicate's unit kg is not compatible with \(hr)"))
        let categoryOnQuantities = try await broker.runApp(app, ["query-matching", hr, "--category", "eq", "1"])
        #expect(categoryOnQuantities.errorCode == 3, "\(categoryOnQuantities)")
        let like = try await broker.runApp(app, ["query-matching", Self.sleep, "--category", "like", "1"])
        #expect(like.errorCode == 3 && like.stdout.contains("is not supported"), "\(like)")
    }

    @Test func predicatesNeverReachPastTheReadScope() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.writer")
        let denied = try await broker.installClient("org.test.denied")
        try await broker.set(writer, "share", Self.heartRate, allowed: true)
        try await broker.set(writer, "share", Self.sleep, allowed: true)
        try await broker.set(denied, "read", Self.heartRate, allowed: false)
        try await populate(broker, writer)
        for filters in [["--device", HKDevicePropertyKeyName, "Watch"], ["--has-meta", "effort"], ["--quantity", "gt", "0", "count/s"],
                        ["--not", "--has-meta", "nothing"]] {
            let result = try await broker.runApp(denied, ["query-matching", Self.heartRate] + filters)
            #expect(result.stdout == "ok 0\n", "\(filters): \(result)")
        }
    }

    @Test func deviceAndSourceRevisionComeBackAsTheBrokerRecordedThem() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.device")
        let reader = try await broker.installClient("org.test.reader")
        try await broker.set(writer, "share", Self.heartRate, allowed: true)
        try await broker.set(reader, "read", Self.heartRate, allowed: true)
        let saved = try await broker.runApp(writer, ["save-from-device", Self.heartRate, "64", "count/min", "\(Self.t0)",
                                                     "Band 7", "Acme Corp", "AB-7", "rev C", "2.1.0", "7.4", "band-0042", "(01)00844588003288"])
        let uuid = try #require(saved.okValue, "\(saved)")

        // A client speaking the protocol directly claims another source, version and UUID.
        let raw = try await RawApp.install("org.test.forger", on: broker, grants: [("share", Self.heartRate)])
        defer { raw.client.close() }
        let forgedUUID = UUID()
        let forged = SampleRecord(uuid: forgedUUID, typeIdentifier: Self.heartRate, startDate: Date(timeIntervalSince1970: 1_700_000_060),
                                  endDate: Date(timeIntervalSince1970: 1_700_000_060), value: .quantity(70, unit: "count/min"),
                                  source: SourceRecord(bundleIdentifier: writer, name: "Test \(writer)", version: "99"))
        #expect(await raw.saveRefusal([forged]) == nil)

        let described = try await broker.runApp(reader, ["describe", Self.heartRate])
        #expect(described.okValue == "2", "\(described)")
        #expect(described.lines.contains("device \(uuid) Band 7|Acme Corp|AB-7|rev C|2.1.0|7.4|band-0042|(01)00844588003288"), "\(described)")
        #expect(described.lines.contains("source \(uuid) \(writer)|Test \(writer)|1.0"), "\(described)")
        let forgedLines = described.lines.filter { !$0.contains(uuid) && $0.hasPrefix("source ") }
        #expect(forgedLines.count == 1 && forgedLines[0].hasSuffix(" org.test.forger|Test org.test.forger|1.0"), "\(described)")
        #expect(!described.stdout.contains(forgedUUID.uuidString), "the broker assigns UUIDs")
    }
}
