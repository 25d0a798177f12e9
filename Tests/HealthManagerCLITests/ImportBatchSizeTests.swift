@testable import AppleHealthExport
import Foundation
@testable import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// `healthctl import` sends thousands of samples per batch; a batch must still fit in one frame
/// when its samples carry the most metadata a sample may (64 entries of 4 KiB): the pipeline
/// weighs each sample by its packed bytes, not only counts them.
@Suite(.timeLimit(.minutes(10))) struct ImportBatchSizeTests {
    /// A pipeline over an export that holds nothing; samples are handed to it directly.
    func pipeline() throws -> (ImportPipeline, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("batch-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n</HealthData>\n"
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        return (ImportPipeline(file: try AppleHealthExportFile(url: folder)), folder)
    }

    func sample(_ index: Int, metadataEntries: Int) -> ImportedSample {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        var metadata: [String: MetadataValue] = [HKMetadataKeySyncIdentifier: .string("sample-\(index)"), HKMetadataKeySyncVersion: .number(1)]
        for entry in 0..<metadataEntries {
            metadata["note \(entry)"] = .string(String(repeating: "x", count: SampleLimits.maximumMetadataStringBytes))
        }
        let record = SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierStepCount", startDate: start,
                                  endDate: start.addingTimeInterval(60), value: .quantity(10, unit: "count"), metadata: metadata)
        return ImportedSample(record: record, sourceName: "Watch", sourceVersion: "1", routes: [])
    }

    @Test(arguments: [0, 60])
    func everyBatchFitsInOneFrame(metadataEntries: Int) throws {
        let (pipeline, folder) = try pipeline()
        defer { try? FileManager.default.removeItem(at: folder) }
        var batches: [ImportPipeline.Batch] = []
        let count = metadataEntries == 0 ? ImportPipeline.batchSize + 1 : 40
        for index in 0..<count {
            try pipeline.add(sample(index, metadataEntries: metadataEntries)) { batches.append($0) }
        }
        #expect(pipeline.tally.refusedCount == 0)
        for batch in batches {
            let bytes = batch.request.wireBytes()
            #expect(bytes.count <= WireLimits.maxFrameBytes, "a batch of \(batch.sampleCount) samples is \(bytes.count) bytes")
            // What healthd reads: every sample, with the batch's source.
            let decoded = try ImportBatch(wire: bytes)
            #expect(decoded.samples.count == batch.sampleCount && decoded.sourceName == "Watch" && decoded.sourceVersion == "1")
        }
        // Plain samples fill whole batches; heavy ones are sent before the frame would overflow.
        if metadataEntries == 0 { #expect(batches.map(\.sampleCount) == [ImportPipeline.batchSize]) }
        else { #expect(!batches.isEmpty) }
    }

    /// A sample that sends the open batch early (it would take it past 2 MiB) starts the next
    /// batch, and its sync identifier is that batch's: the same record again is a duplicate,
    /// counted as already there, not a second copy in one batch (which healthd refuses whole).
    @Test func aSampleThatSendsItsBatchEarlyStillCountsForDuplicates() throws {
        let (pipeline, folder) = try pipeline()
        defer { try? FileManager.default.removeItem(at: folder) }
        var batches: [ImportPipeline.Batch] = []
        var index = 0
        while batches.isEmpty, index < 1_000 {
            try pipeline.add(sample(index, metadataEntries: 60)) { batches.append($0) }
            index += 1
        }
        try #require(batches.count == 1, "heavy samples send a batch early")
        #expect(pipeline.tally.unchanged == 0)
        try pipeline.add(sample(index - 1, metadataEntries: 60)) { batches.append($0) }
        #expect(pipeline.tally.unchanged == 1, "the sample that opened the batch, again")
    }
}
