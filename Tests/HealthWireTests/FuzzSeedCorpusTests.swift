import Foundation
import Testing
@testable import HealthModel
@testable import HealthWire

/// The committed seed corpora of the fuzz targets in Fuzz/ (Fuzz/README.md): honest encodings
/// of real messages, so libFuzzer starts from inputs that reach deep into the decoders.
/// Regenerate with `OHK_REGENERATE_FUZZ_SEEDS=1 swift test --filter FuzzSeedCorpusTests`.
@Suite(.timeLimit(.minutes(10))) struct FuzzSeedCorpusTests {
    static var fuzzDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz")
    }

    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static let samples: [SampleRecord] = [
        SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue, startDate: start,
                     endDate: start.addingTimeInterval(60), value: .quantity(72, unit: "count/min"),
                     metadata: ["HKMetadataKeyHeartRateMotionContext": .number(1), "org.example.note": .string("é☃"),
                                "org.example.when": .date(start), "org.example.q": .quantity(value: 3, unit: "km"),
                                "org.example.flag": .bool(true)],
                     device: DeviceRecord(name: "Band", manufacturer: "Acme", model: "7"),
                     source: SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1")),
        SampleRecord(uuid: UUID(), typeIdentifier: HKCategoryTypeIdentifier.sleepAnalysis.rawValue, startDate: start,
                     endDate: start.addingTimeInterval(3600), value: .category(1)),
    ]

    static let predicates: [SamplePredicate] = [
        .and([.dateRange(start: start, end: start.addingTimeInterval(86_400), strictStart: true, strictEnd: false),
              .or([.uuids([UUID(), UUID()]), .sources(["org.example.app"])]),
              .not(.device(.manufacturer, allowedValues: ["Acme", "Other"]))]),
        .metadata(key: "org.example.q", .oneOf([.quantity(value: 3, unit: "km"), .number(2), .string("x")])),
        .metadata(key: "HKMetadataKeyHeartRateMotionContext", .compare(.greaterThan, .number(0))),
        .quantity(.greaterThanOrEqualTo, value: 60, unit: "count/min"),
        .categoryValue(.equalTo, 1),
        .workoutActivityType(37),
        .workout(UUID()),
    ]

    /// Index of a type in Fuzz/message's list (the first input byte picks the type).
    static let sampleListIndex: UInt8 = 40
    static let sampleQuerySpecIndex: UInt8 = 41

    /// Fuzz/query-spec: the first byte picks the query kind (`QuerySpecKind` in the target), the
    /// rest is the request an app sends for it.
    static func querySpecSeeds() -> [[UInt8]] {
        func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDay? { CalendarDay(year: year, month: month, day: day) }
        let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue, steps = HKQuantityTypeIdentifier.stepCount.rawValue
        let dateRange = predicates[0], aboveSixty = predicates[3]
        let stepSums = StatisticsQuerySpec(typeIdentifier: steps, predicate: dateRange, options: .cumulativeSum)
        let seeds: [(kind: UInt8, payload: [UInt8])] = [
            // Session 22 (crashhunt22): 1582-10-14 … 15 built an inverted TimeSpan (a trap in healthd).
            (0, ActivitySummaryQuerySpec(firstDay: day(1582, 10, 14), lastDay: day(1582, 10, 15), timeZoneIdentifier: "UTC").wireBytes()),
            (0, ActivitySummaryQuerySpec(firstDay: day(2020, 1, 1), lastDay: day(2020, 1, 7), timeZoneIdentifier: "Europe/Berlin").wireBytes()),
            (0, ActivitySummaryQuerySpec(firstDay: day(2020, 3, 28), timeZoneIdentifier: "America/New_York").wireBytes()),
            (1, StatisticsCollectionSpec(statistics: stepSums, anchor: Date(timeIntervalSince1970: 1_577_833_200),
                                         interval: StatisticsInterval(days: 1), timeZoneIdentifier: "Europe/Berlin").wireBytes()),
            (1, StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: heartRate, predicate: aboveSixty,
                                                                         options: [.discreteAverage, .discreteMin, .discreteMax]),
                                         anchor: Date(timeIntervalSince1970: 1_577_836_800), interval: StatisticsInterval(months: 1),
                                         timeZoneIdentifier: "UTC").wireBytes()),
            (2, stepSums.wireBytes()),
            (3, SampleQuerySpec(typeIdentifier: heartRate, predicate: dateRange, sort: [SampleSort(.startDate, ascending: false)],
                                limit: 10).wireBytes()),
            (4, AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: heartRate, predicate: aboveSixty),
                                                TypePredicateSpec(typeIdentifier: heartRate, predicate: dateRange),
                                                TypePredicateSpec(typeIdentifier: HKCategoryTypeIdentifier.sleepAnalysis.rawValue, predicate: nil)],
                                  limit: 10).wireBytes()),
            (5, TypePredicateSpec(typeIdentifier: heartRate, predicate: aboveSixty).wireBytes()),
            (6, MatchingDeletion(typeIdentifier: heartRate, predicate: dateRange).wireBytes()),
            (7, VerifiableRecordQuerySpec(recordTypes: ["#immunization"], sourceTypes: [VerifiableRecordSourceType.smartHealthCard],
                                          relevantInterval: Date(timeIntervalSince1970: 1_609_459_200)...Date(timeIntervalSince1970: 1_640_995_200))
                .wireBytes()),
            (8, CorrelationQuerySpec(typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue, predicate: dateRange,
                                     objectPredicates: [HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue: dateRange]).wireBytes()),
        ]
        return seeds.map { [$0.kind] + $0.payload }
    }

    static func seeds() -> [String: [[UInt8]]] {
        let specs = predicates.map { SampleQuerySpec(typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue, predicate: $0,
                                                     sort: [SampleSort(.startDate, ascending: false)], limit: 10).wireBytes() }
        let frames = [
            Frame(callID: 1, method: HealthStoreMethod.querySamples.rawValue, kind: .request, payload: specs[0]),
            Frame(callID: 2, kind: .response, payload: SampleList(samples).wireBytes()),
            Frame(callID: 3, kind: .endOfStream, status: RPCStatus(.invalidArgument, "bad request", healthKitCode: .errorInvalidArgument)),
        ].map { FrameReader.prefix(forBodyLength: FrameCodec.encode($0).count) + FrameCodec.encode($0) }
        let units = ["count/min", "mg/dL", "kcal/(kg*hr)", "mmol<180.15588>/L", "degF", "m^2", "%", "mL/min·kg", "dBASPL", "µg",
                     // Session 21: nested powers whose exponents overflowed Int (a trap in healthd).
                     "((((((count^999)^999)^999)^999)^999)^999)^999", "((m^9)^999)^-999*(m/s)^24"]
        let manifests = [
            #"{"id": "com.example.sleep", "displayName": "Sleep Tracker", "executable": "/usr/bin/sleep-tracker", "version": "1.2", "NSHealthShareUsageDescription": "Charts your nights.", "NSHealthUpdateUsageDescription": "Saves sleep.", "entitlements": ["background-delivery"]}"#,
            #"{"id": "x", "displayName": "\u00e9", "executable": "/bin/true", "version": "1"}"#,
        ]
        return [
            "frame": frames + [frames.joined().map { $0 }],
            "message": [[sampleListIndex] + SampleList(samples).wireBytes()] + specs.map { [sampleQuerySpecIndex] + $0 },
            "predicate": specs,
            "unit": units.map { Array($0.utf8) },
            "manifest": manifests.map { Array($0.utf8) },
            "query-spec": querySpecSeeds(),
        ]
    }

    @Test func everyTargetHasACommittedSeedCorpus() throws {
        let seeds = Self.seeds()
        if ProcessInfo.processInfo.environment["OHK_REGENERATE_FUZZ_SEEDS"] == "1" {
            for (target, inputs) in seeds {
                let directory = Self.fuzzDirectory.appendingPathComponent("\(target)/corpus")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (index, input) in inputs.enumerated() {
                    try Data(input).write(to: directory.appendingPathComponent(String(format: "seed-%02d", index)))
                }
            }
        }
        for (target, inputs) in seeds {
            let directory = Self.fuzzDirectory.appendingPathComponent("\(target)/corpus").path
            let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("seed-") }
            #expect(files.count >= inputs.count, "\(target): regenerate the seeds (see this suite's comment)")
        }
        // The first byte of a message seed picks the type its payload is (Fuzz/message).
        let firstMessage = try #require(seeds["message"]?.first)
        #expect(try SampleList(wire: Array(firstMessage.dropFirst())).samples.count == Self.samples.count)
    }
}
