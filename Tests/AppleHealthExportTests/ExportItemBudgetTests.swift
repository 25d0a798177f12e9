@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// One item of export.xml is handed on only when its element closes, so until then the reader
/// holds everything nested in it (session 18 storage review, finding 4: "children of one item").
/// Each child kind is now counted as it arrives (`ExportItemBudget`): an item with one child too
/// many is refused naming the item, its line and the bound, at the child past the bound — so no
/// more than the bound was ever held. The million-child files are written once per case and
/// read only up to the bound.
@Suite(.timeLimit(.minutes(10))) struct ExportItemBudgetTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var item: String
        /// Lines that open the item (the item's own element is the first).
        var open: [String]
        var child: String
        var close: [String]
        var children: Int
        var bound: Int
        var testDescription: String { "\(children) × \(child.prefix { $0 != " " })> in <\(item)>" }
    }

    static let dates = "startDate=\"2024-05-01 10:00:00 +0000\" endDate=\"2024-05-01 11:00:00 +0000\""
    static let limits = ExportItemBudget.childLimits

    static let cases: [Case] = [
        Case(item: "Workout", open: ["<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" \(dates)>"],
             child: "<WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2024-05-01 10:30:00 +0000\"/>",
             close: ["</Workout>"], children: 1_000_000, bound: SampleLimits.maximumWorkoutEvents),
        Case(item: "Record", open: ["<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"5\" \(dates)>"],
             child: "<MetadataEntry key=\"HKMetadataKeyExternalUUID\" value=\"x\"/>",
             close: ["</Record>"], children: 1_000_000, bound: limits["MetadataEntry"] ?? 0),
        Case(item: "Workout", open: ["<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" \(dates)>", "<WorkoutRoute>"],
             child: "<Location date=\"2024-05-01 10:30:00 +0000\" latitude=\"1\" longitude=\"2\"/>",
             close: ["</WorkoutRoute>", "</Workout>"], children: SampleLimits.maximumRouteLocations + 10,
             bound: SampleLimits.maximumRouteLocations),
        Case(item: "Record", open: ["<Record type=\"HKQuantityTypeIdentifierHeartRateVariabilitySDNN\" unit=\"ms\" value=\"5\" \(dates)>",
                                    "<HeartRateVariabilityMetadataList>"],
             child: "<InstantaneousBeatsPerMinute bpm=\"60\" time=\"10:00:00.00 AM\"/>",
             close: ["</HeartRateVariabilityMetadataList>", "</Record>"], children: SeriesValidator.maximumHeartbeats + 10,
             bound: SeriesValidator.maximumHeartbeats),
        Case(item: "Correlation", open: ["<Correlation type=\"HKCorrelationTypeIdentifierFood\" \(dates)>"],
             child: "<Record type=\"HKQuantityTypeIdentifierDietaryEnergyConsumed\" unit=\"kcal\" value=\"5\" \(dates)/>",
             close: ["</Correlation>"], children: 1_010, bound: limits["Record"] ?? 0),
        Case(item: "Workout", open: ["<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" \(dates)>"],
             child: "<SomethingNew a=\"b\"/>", close: ["</Workout>"], children: ExportItemBudget.otherChildLimit + 10,
             bound: ExportItemBudget.otherChildLimit),
    ]

    /// export.xml with one item of `children` children, written in chunks; the item opens on line 3.
    static func write(_ test: Case, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let file = FileHandle(forWritingAtPath: url.path) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? file.close() }
        try file.write(contentsOf: Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                                         + test.open.joined(separator: "\n") + "\n").utf8))
        // At most 10,000 children a chunk, and never more than the item holds: 10,000 copies of
        // the 1 MB children of the text case were a 10 GB string (20 GB of memory, 55 s).
        let perChunk = min(10_000, test.children)
        let chunk = Data(String(repeating: test.child + "\n", count: perChunk).utf8)
        var written = 0
        while written + perChunk <= test.children {
            try file.write(contentsOf: chunk)
            written += perChunk
        }
        try file.write(contentsOf: Data((String(repeating: test.child + "\n", count: test.children - written)
                                         + test.close.joined(separator: "\n") + "\n</HealthData>\n").utf8))
    }

    @Test(arguments: cases)
    func anItemWithOneChildPastItsBoundIsRefusedAtThatChild(_ test: Case) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("item-budget-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.write(test, to: url)
        var handed = 0
        let reader = ExportXMLReader(fileName: "export.xml", progress: nil) { _ in handed += 1 }
        #expect(test.bound > 0)
        do {
            try reader.read(path: url.path)
            Issue.record("read \(handed) items; the oversized <\(test.item)> was accepted")
        } catch let error as ExportReadError {
            guard case let .invalidElement(file, element, line, reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(file == "export.xml")
            #expect(element == test.item)
            #expect(line == 3, "\(error)")
            #expect(reason.contains("more than \(test.bound) "), "\(error)")
            // The first child is on the line after the item's opening lines: child bound + 1 is the refused one.
            #expect(reason.contains("the next is on line \(3 + test.open.count + test.bound)"), "\(error)")
            #expect(handed == 0)
        }
    }

    /// Kept text is bounded too: 17 metadata values of 1 MB pass no count but 16 MiB of text.
    @Test func anItemWhoseChildrenCarryTooMuchTextIsRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("item-budget-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: url) }
        let value = String(repeating: "v", count: 1 << 20)
        let test = Case(item: "Record", open: ["<Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"5\" \(Self.dates)>"],
                        child: "<MetadataEntry key=\"k\" value=\"\(value)\"/>", close: ["</Record>"], children: 17, bound: 0)
        try Self.write(test, to: url)
        let reader = ExportXMLReader(fileName: "export.xml", progress: nil) { _ in }
        #expect {
            try reader.read(path: url.path)
        } throws: { error in
            guard case let .invalidElement(_, element, line, reason) = error as? ExportReadError else { return false }
            return element == "Record" && line == 3 && reason.contains("\(ExportItemBudget.maximumTextBytes) bytes")
        }
    }

    /// Elements the reader skips are counted by name for the summary; a file of endless new names
    /// keeps a bounded list.
    @Test func skippedElementNamesAreBounded() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("item-budget-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: url) }
        let body = (0..<5_000).map { "<Unknown\($0)/>" }.joined(separator: "\n")
        try Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData>\n" + body + "\n</HealthData>\n").utf8).write(to: url)
        let reader = ExportXMLReader(fileName: "export.xml", progress: nil) { _ in }
        try reader.read(path: url.path)
        #expect(reader.skipped.count <= ExportXMLReader.maximumSkippedNames + 1)
        #expect(reader.skipped.values.reduce(0, +) == 5_000)
    }
}
