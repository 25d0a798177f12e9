import Foundation
import HealthModel
import Testing

/// Correlation types in the change-feed queries (anchored, observer, source), through the whole
/// stack, against the sample query of the same type.
///
/// Apple's documentation: HKAnchoredObjectQuery's `type` "supports all subclasses of
/// HKSampleType, such as HKQuantityType, HKCategoryType, HKWorkoutType, and HKCorrelationType"
/// (`init(type:predicate:anchor:limit:resultsHandler:)`); HKObserverQuery and HKSourceQuery take
/// any HKSampleType. And for permission: "you do not request permission to share and read
/// correlation types directly. Instead, you request permission to share and read each of the
/// sample types contained within the correlation" (HKCorrelationQuery, "Requesting Permission to
/// Share and Read"). So a correlation type has no grant of its own, and every read kind must
/// decide its correlations by the contained types' grants, as correlation and sample queries do
/// (`SampleRepository.queryCorrelations`): visible only where every contained type is readable.
@Suite(.timeLimit(.minutes(10)), .serialized) struct CorrelationChangeQueryEndToEndTests {
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue

    /// A writer, a reader of both halves and a reader of systolic only (diastolic denied), each
    /// allowed to save blood pressure.
    struct Apps {
        let writer: String
        let reader: String
        let half: String
    }

    func install(_ broker: BrokerProcess) async throws -> Apps {
        let apps = Apps(writer: try await broker.installClient("org.test.cuff"),
                        reader: try await broker.installClient("org.test.chart"),
                        half: try await broker.installClient("org.test.half"))
        for app in [apps.writer, apps.reader, apps.half] {
            for type in [Self.systolic, Self.diastolic] { try await broker.set(app, "share", type, allowed: true) }
        }
        for type in [Self.systolic, Self.diastolic] { try await broker.set(apps.reader, "read", type, allowed: true) }
        try await broker.set(apps.half, "read", Self.systolic, allowed: true)
        try await broker.set(apps.half, "read", Self.diastolic, allowed: false)
        return apps
    }

    /// The `added`, `deleted` and `delivery` lines of an `anchored` run.
    func changes(_ result: ProcessResult) -> [String] {
        result.lines.filter { $0.hasPrefix("added ") || $0.hasPrefix("deleted ") || $0.hasPrefix("delivery ") }
    }

    @Test func anAnchoredQueryOfACorrelationTypeSeesWhatTheSampleQuerySees() async throws {
        let broker = try BrokerProcess()
        let apps = try await install(broker)
        let files = try makeAppFilesDirectory(under: broker.root)
        let saved = try await broker.runApp(apps.writer, ["save-blood-pressure", "120", "80", "1700000000"])
        let reading = try #require(saved.okValue?.split(separator: " ").first.map(String.init), "\(saved)")
        let own = try await broker.runApp(apps.half, ["save-blood-pressure", "110", "70", "1700000600"])
        let ownReading = try #require(own.okValue?.split(separator: " ").first.map(String.init), "\(own)")

        // The reader of both halves: the sample query shows both readings, and so must the
        // anchored query — whole correlations, with their samples.
        let sampleQuery = try await broker.runApp(apps.reader, ["query-correlations", Self.bloodPressure, "--sample-query"])
        #expect(sampleQuery.lines.filter { $0.hasPrefix("correlation ") }.count == 2, "\(sampleQuery)")
        let readerAnchor = files + "/reader-anchor"
        let anchored = try await broker.runApp(apps.reader, ["anchored", Self.bloodPressure, "--anchor-file", readerAnchor], writable: files)
        #expect(changes(anchored) == ["added \(reading) 80.0/120.0 \(apps.writer)", "added \(ownReading) 70.0/110.0 \(apps.half)",
                                      "delivery initial 2 0"], "\(anchored)")
        #expect(try await broker.runApp(apps.reader, ["sources", Self.bloodPressure]).lines
                == ["source \(apps.writer)", "source \(apps.half)", "ok 2"])  // by bundle identifier

        // Denied diastolic: its own reading only, in every read kind — the writer's would reveal
        // a diastolic sample it may not read.
        let halfSampleQuery = try await broker.runApp(apps.half, ["query-correlations", Self.bloodPressure, "--sample-query"])
        #expect(halfSampleQuery.lines.filter { $0.hasPrefix("correlation ") }.count == 1, "\(halfSampleQuery)")
        let halfAnchor = files + "/half-anchor"
        let halfAnchored = try await broker.runApp(apps.half, ["anchored", Self.bloodPressure, "--anchor-file", halfAnchor], writable: files)
        #expect(changes(halfAnchored) == ["added \(ownReading) 70.0/110.0 \(apps.half)", "delivery initial 1 0"], "\(halfAnchored)")
        #expect(try await broker.runApp(apps.half, ["sources", Self.bloodPressure]).lines == ["source \(apps.half)", "ok 1"])

        // Deleted correlations: only those the app could have seen. The writer deletes its own
        // reading (share permission for the types it holds; CorrelationDeletionEndToEndTests).
        let deletion = try await broker.runApp(apps.writer, ["delete", Self.bloodPressure, reading])
        #expect(deletion.okValue == "1", "\(deletion)")
        let afterDeletion = try await broker.runApp(apps.reader, ["anchored", Self.bloodPressure, "--anchor-file", readerAnchor], writable: files)
        #expect(changes(afterDeletion) == ["deleted \(reading) - -", "delivery initial 0 1"], "\(afterDeletion)")
        let halfAfterDeletion = try await broker.runApp(apps.half, ["anchored", Self.bloodPressure, "--anchor-file", halfAnchor], writable: files)
        #expect(changes(halfAfterDeletion) == ["delivery initial 0 0"], "\(halfAfterDeletion)")
    }

    @Test func anObserverOfACorrelationTypeWakesForTheReadingsTheAppMaySee() async throws {
        let broker = try BrokerProcess()
        let apps = try await install(broker)
        let reader = try LiveApp(apps.reader, ["observe", Self.bloodPressure, "--count", "2"], adminSocket: broker.adminSocket)
        let half = try LiveApp(apps.half, ["observe", Self.bloodPressure, "--count", "2"], adminSocket: broker.adminSocket)
        #expect(try await reader.waitForLine("update 1"), "\(reader.lines)")
        #expect(try await half.waitForLine("update 1"), "\(half.lines)")

        #expect(try await broker.runApp(apps.writer, ["save-blood-pressure", "120", "80", "1700000000"]).okValue != nil)
        // The reader of both halves is told of the writer's reading.
        let readerResult = await reader.finish()
        #expect(readerResult.lines == ["update 1", "update 2", "ok 2"], "\(readerResult)")
        // The reader denied diastolic is not. A correct broker never sends this update; a leaking
        // one would within milliseconds, so the wait can only fail when something leaks.
        #expect(try await half.waitForLine("update 2", timeout: 1) == false, "\(half.lines)")
        // Its own reading wakes it.
        #expect(try await broker.runApp(apps.half, ["save-blood-pressure", "110", "70", "1700000600"]).okValue != nil)
        let halfResult = await half.finish()
        #expect(halfResult.lines == ["update 1", "update 2", "ok 2"], "\(halfResult)")
    }
}
