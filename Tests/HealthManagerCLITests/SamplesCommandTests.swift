import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Synchronization
import Testing

/// `healthctl samples`: formatting, validation, and the query sent to a fake healthd.
@Suite(.timeLimit(.minutes(10))) struct SamplesCommandTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let start = try! Date("2024-05-01T08:30:00Z", strategy: .iso8601)

    static let pulse = SampleRecord(
        uuid: UUID(uuidString: "01890A5D-AC96-774B-BCCE-B302099A8057")!, typeIdentifier: heartRate,
        startDate: start, endDate: start.addingTimeInterval(60), value: .quantity(72, unit: "count/min"),
        metadata: ["HKMetadataKeyHeartRateMotionContext": .number(1)],
        device: DeviceRecord(name: "Watch"), source: SourceRecord(bundleIdentifier: "com.example.run", name: "Runner", version: "2"))

    static let sleep = SampleRecord(
        uuid: UUID(uuidString: "01890A5D-AC96-774B-BCCE-B302099A8058")!, typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis",
        startDate: start, endDate: start.addingTimeInterval(3600), value: .category(3))

    /// Streams `batches` for QuerySamples.
    static func broker(_ batches: [[SampleRecord]]) throws -> FakeManagerServer {
        try FakeManagerServer { call in
            guard call.method == HealthManagerMethod.querySamples.rawValue else {
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: true)
                return
            }
            for batch in batches { try? await call.responder.send(SampleList(batch).wireBytes()) }
            call.responder.finish()
        }
    }

    @Test func tableShowsConvertedValuesInTheUsersZone() async throws {
        let server = try Self.broker([[Self.pulse], [Self.pulse]])
        defer { server.stop() }
        let outcome = await runHealthCtl(["samples", "--socket", server.socketPath, "heart-rate", "--unit", "count/s",
                                          "--from", "2024-05-01", "--to", "2024-05-01", "--limit", "5"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            START                END                  VALUE  UNIT     SOURCE                    DEVICE
            2024-05-01 08:30:00  2024-05-01 08:31:00    1.2  count/s  Runner (com.example.run)  Watch
            2024-05-01 08:30:00  2024-05-01 08:31:00    1.2  count/s  Runner (com.example.run)  Watch

            """)
        let spec = try SampleQuerySpec(wire: try #require(server.payloads(for: .querySamples).first))
        let day = try Date("2024-05-01T00:00:00Z", strategy: .iso8601)
        #expect(spec == SampleQuerySpec(
            typeIdentifier: Self.heartRate,
            predicate: .dateRange(start: day, end: day.addingTimeInterval(86_400), strictStart: false, strictEnd: false),
            sort: [SampleSort(.startDate, ascending: true)], limit: 5))
    }

    @Test func jsonPrintsOneObjectPerSample() async throws {
        let server = try Self.broker([[Self.pulse, Self.sleep]])
        defer { server.stop() }
        let outcome = await runHealthCtl(["samples", "--socket", server.socketPath, "HKQuantityTypeIdentifierHeartRate", "--json"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"device":{"name":"Watch"},"end":"2024-05-01T08:31:00.000Z","metadata":{"HKMetadataKeyHeartRateMotionContext":1},"# +
            #""source":{"bundleIdentifier":"com.example.run","name":"Runner","version":"2"},"start":"2024-05-01T08:30:00.000Z","# +
            #""type":"HKQuantityTypeIdentifierHeartRate","unit":"count/min","uuid":"01890a5d-ac96-774b-bcce-b302099a8057","value":72}"#,
            #"{"end":"2024-05-01T09:30:00.000Z","start":"2024-05-01T08:30:00.000Z","type":"HKCategoryTypeIdentifierSleepAnalysis","# +
            #""uuid":"01890a5d-ac96-774b-bcce-b302099a8058","value":3}"#,
        ])
    }

    @Test func emptyResultSaysSo() async throws {
        let server = try Self.broker([])
        defer { server.stop() }
        let outcome = await runHealthCtl(["samples", "--socket", server.socketPath, "sleepAnalysis", "--from", "2024-05-01"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == "No Sleep Analysis samples in that range.\n")
    }

    @Test(arguments: [
        (["dateOfBirth"], "Date Of Birth is not a sample type"),
        (["sleepAnalysis", "--unit", "kg"], "--unit applies to quantity types"),
        (["heartRate", "--unit", "kg"], "kg does not measure Heart Rate (its unit is count/s)"),
        (["heartRate", "--unit", "furlongs"], "furlongs"),
        (["heartRate", "--limit", "0"], "--limit must be a positive number"),
        (["heartRate", "--from", "2024-05-02", "--to", "2024-05-01"], "--from 2024-05-02 is not before --to 2024-05-01"),
        (["heartRate", "--from", "May 1st"], "'May 1st' is not an ISO 8601 date"),
    ])
    func refusedBeforeQuerying(arguments: [String], message: String) async {
        let outcome = await runHealthCtl(["samples", "--socket", "/nonexistent/admin.sock"] + arguments)
        #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue)
        #expect(outcome.errors.contains(message), "\(outcome.errors)")
    }

    /// redteam23 F5: the SOURCE cell says who a source is, beyond the name an app chooses — the
    /// user's own entries and an app named "Health" (an older version let the name in) differ.
    @Test func theUsersOwnEntriesAndAnAppNamedLikeThemShowApart() {
        let formatter = SampleFormatter(displayUnit: nil, timeZone: TimeZone(identifier: "UTC")!)
        var own = Self.pulse, app = Self.pulse, imported = Self.pulse
        own.source = .user
        app.source = SourceRecord(bundleIdentifier: "com.ex.fake", name: "Health", version: "1")
        imported.source = SourceRecord(bundleIdentifier: "@import/Apple Health/Health", name: "Health (Apple Health)")
        #expect(formatter.tableRow(own)[4] == "Health (you)")
        #expect(formatter.tableRow(app)[4] == "Health (com.ex.fake)")
        #expect(formatter.tableRow(imported)[4] == "Health (Apple Health)")
        // An app named like the user's label still ends with its id.
        app.source = SourceRecord(bundleIdentifier: "com.ex.fake", name: "Health (you)", version: "1")
        #expect(formatter.tableRow(app)[4] == "Health (you) (com.ex.fake)")
    }

    @Test func formatterKeepsTinyValuesVisible() {
        let formatter = SampleFormatter(displayUnit: nil, timeZone: TimeZone(identifier: "UTC")!)
        var sample = Self.pulse
        sample.value = .quantity(0.00042, unit: "g")
        #expect(formatter.tableRow(sample)[2] == "0.00042")
        sample.value = .quantity(12_345_678, unit: "count")
        #expect(formatter.tableRow(sample)[2] == "12345678")
        sample.value = .quantity(36.6, unit: "degC")
        #expect(formatter.tableRow(sample)[2] == "36.6")
    }

    /// A state of mind shows its band, valence and parts by HealthKit's Swift case names, in the
    /// table and in --json (labels and associations in the app's order).
    @Test func aStateOfMindShowsItsBandAndItsParts() throws {
        let formatter = SampleFormatter(displayUnit: nil, timeZone: TimeZone(identifier: "UTC")!)
        let state = SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierStateOfMind, startDate: Self.start, endDate: Self.start,
                                 value: .stateOfMind(StateOfMindValue(kind: 2, valence: -0.5, labels: [38, 1], associations: [2])))
        #expect(formatter.tableRow(state)[2]
                == "Unpleasant (-0.5), daily mood; labels satisfied, amazed; associations currentEvents")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(formatter.jsonLine(state).utf8)) as? [String: Any])
        let parts = try #require(json["stateOfMind"] as? [String: Any])
        #expect(json["value"] as? Double == -0.5)
        #expect(parts["kind"] as? String == "dailyMood")
        #expect(parts["labels"] as? [String] == ["satisfied", "amazed"])
        #expect(parts["associations"] as? [String] == ["currentEvents"])
    }
}
