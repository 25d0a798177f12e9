@testable import AppleHealthExport
import Foundation
@testable import HealthManagerCLI
import Testing

/// An import that stops early (healthd refused a batch, so `healthctl import` stops taking
/// batches) must end with healthd's reason, not a crash: the pipeline is freed with batches
/// handed out and never answered, and a reader waiting for room must stop instead of waiting
/// forever. Before, libdispatch trapped (SIGILL) freeing the pipeline's semaphore.
@Suite(.timeLimit(.minutes(10))) struct ImportPipelineStopTests {
    /// An export of one step count from each of `sources` sources: one batch each at the end.
    func export(sources: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        for source in 0..<sources {
            xml += """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Source \(source)" unit="count" \
                startDate="2024-05-01 08:0\(source):00 +0200" endDate="2024-05-01 08:0\(source):30 +0200" value="12"/>

                """
        }
        try Data((xml + "</HealthData>\n").utf8).write(to: folder.appendingPathComponent("export.xml"))
        return folder
    }

    /// Takes `take` batches (all when nil) without answering any, then lets go of the pipeline;
    /// true when the pipeline was freed (its reader finished) before the hang guard.
    func takeAndDrop(sources: Int, take: Int?) async throws -> (taken: Int, freed: Bool) {
        let folder = try export(sources: sources)
        defer { try? FileManager.default.removeItem(at: folder) }
        var pipeline: ImportPipeline? = ImportPipeline(file: try AppleHealthExportFile(url: folder))
        weak let watched = pipeline
        var taken = 0
        if let stream = pipeline?.batches() {
            for try await _ in stream {
                taken += 1
                if let take, taken == take { break }
            }
        }
        pipeline = nil
        // Hang guard only: the reader lets go of the pipeline as soon as it stops.
        let deadline = Date().addingTimeInterval(30)
        while watched != nil, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return (taken, watched == nil)
    }

    @Test func aPipelineWhoseBatchesWereNeverAnsweredIsFreedWithoutACrash() async throws {
        let result = try await takeAndDrop(sources: 3, take: nil)
        #expect(result.taken == 3)
        #expect(result.freed)
    }

    @Test func aReaderWaitingForRoomStopsWhenTheConsumerDoes() async throws {
        // More batches than may be unanswered at once: the reader waits for room after four.
        let result = try await takeAndDrop(sources: 8, take: 1)
        #expect(result.taken == 1)
        #expect(result.freed, "the reader still waits for room nobody will make")
    }
}
