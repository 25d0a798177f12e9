import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// Every stored-value edge case through every `healthctl samples` output format (table, table
/// with --unit, --json): the command succeeds and every line is valid. Values a current broker
/// refuses (+inf, NaN, 1e308 steps) are included because a store written by an older version
/// may hold them; they used to crash `--json` (a `try!` in the formatter, issue 13).
@Suite(.timeLimit(.minutes(10))) struct SampleOutputEdgeCaseTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let start = Date(timeIntervalSince1970: 1_714_552_200)

    static let longText = String(repeating: "é🫀\u{202E}x", count: 1_000)

    static let metadataKinds: [String: MetadataValue] = [
        "org.example.string": .string("naïve ☃ \"quoted\" \\ back\u{7}bell\ttab\nnewline"),
        "org.example.long": .string(longText),
        "org.example.number": .number(-0.0),
        "org.example.largest": .number(.greatestFiniteMagnitude),
        "org.example.tiny": .number(.leastNonzeroMagnitude),
        "org.example.date": .date(Date(timeIntervalSince1970: -2_208_988_800)),
        "org.example.quantity": .quantity(value: 5e-324, unit: "count/min"),
        "org.example.bool": .bool(true),
        "org.example.infinite-legacy": .number(.infinity),
    ]

    static let values: [Double] = [
        0, -0.0, 1, 300, -40, 1e-9, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e15,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
    ]

    static var samples: [SampleRecord] {
        values.enumerated().map { index, value in
            SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: start.addingTimeInterval(Double(index)),
                         endDate: start.addingTimeInterval(Double(index) + 60), value: .quantity(value, unit: "count/min"),
                         metadata: index == 0 ? metadataKinds : ["org.example.unicode \(longText.prefix(8))": .string(longText)],
                         device: DeviceRecord(name: longText, manufacturer: "Ünïcødé"),
                         source: SourceRecord(bundleIdentifier: "org.example.app", name: "名前 \(longText.prefix(40))", version: "1"))
        } + [
            SampleRecord(uuid: UUID(), typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", startDate: start,
                         endDate: start.addingTimeInterval(3600), value: .category(Int.min)),
            SampleRecord(uuid: UUID(), typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", startDate: start,
                         endDate: start.addingTimeInterval(3600), value: .category(Int.max)),
        ]
    }

    static func broker(_ samples: [SampleRecord]) throws -> FakeManagerServer {
        try FakeManagerServer { call in
            guard call.method == HealthManagerMethod.querySamples.rawValue else {
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: true)
                return
            }
            for sample in samples { try? await call.responder.send(SampleList([sample]).wireBytes()) }
            call.responder.finish()
        }
    }

    @Test(arguments: [[], ["--unit", "count/s"], ["--json"], ["--json", "--unit", "count/s"]])
    func everyEdgeCaseGivesValidOutputInEveryFormat(_ format: [String]) async throws {
        let samples = Self.samples
        let server = try Self.broker(samples)
        defer { server.stop() }
        let outcome = await runHealthCtl(["samples", "--socket", server.socketPath, "heart-rate"] + format)
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if format.contains("--json") {
            #expect(lines.count == samples.count)
            for line in lines {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["uuid"] is String, "\(line.prefix(200))")
            }
        } else {
            #expect(lines.count == samples.count + 1)  // the header
            for line in lines {
                #expect(!line.contains("\u{0}"))
                // No number is printed with hundreds of digits.
                #expect(!line.contains("0000000000000000000000000000000"), "\(line.prefix(200))")
            }
        }
    }
}

/// healthctl's arguments are checked as bytes: invalid UTF-8 is refused, never replaced.
@Suite(.timeLimit(.minutes(10))) struct RawArgumentTests {
    @Test func invalidUTF8InAnArgumentIsAUsageErrorNamingIt() async {
        let outcome = await runHealthCtlRaw([Array("samples".utf8), [0x68, 0x65, 0xFF, 0x72]])
        #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue)
        #expect(outcome.errors == "healthctl: argument 2 is not valid UTF-8 at byte 2; arguments must be UTF-8 text\n")
    }
}
