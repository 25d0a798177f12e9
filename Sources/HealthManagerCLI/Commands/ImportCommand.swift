import AppleHealthExport
import ArgumentParser
import Foundation
import Glibc
import HealthWire

/// `healthctl import PATH`: brings an Apple Health export into the store.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an Apple Health export (export.zip, its unpacked folder, or export.xml).",
        discussion: """
            Every record, correlation (blood pressure, food) and workout is checked exactly as \
            an app's save and stored under its original source, shown to apps as "<source> \
            (Apple Health)". Importing the same file again adds nothing; an interrupted import \
            can simply be run again. Memory use does not grow with the file's size.

            A summary per type follows: imported, already there, refused and why. Activity \
            summaries are not imported (they are computed from the samples); clinical records, \
            audiograms and other element kinds are not imported yet, and are counted. Workout \
            routes (inline or GPX files in the zip) are stored with their workouts.

            Example:
              healthctl import ~/Downloads/export.zip
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The export: export.zip, the apple_health_export folder, or export.xml.", valueName: "path"),
              completion: .file())
    var path: String

    func run() async throws {
        let io = CommandIO.current
        let file: AppleHealthExportFile
        do {
            file = try AppleHealthExportFile(url: URL(fileURLWithPath: path))
        } catch {
            throw HealthCtlError.importUnreadable(reason: "\(error)")
        }
        let client = try connection.connect()
        defer { client.close() }

        let pipeline = ImportPipeline(file: file)
        var progress = ImportProgress(totalLines: file.xmlLines, interactive: io.usesStyling)
        do {
            for try await batch in pipeline.batches() {
                let outcome = try await client.importSamples(ImportBatch(
                    origin: pipeline.origin, sourceName: batch.sourceName ?? "", sourceVersion: batch.sourceVersion,
                    samples: batch.samples, routes: batch.routes))
                pipeline.batchSent()
                pipeline.record(batch, outcome: outcome)
                if let line = progress.update(records: batch.readSoFar, line: batch.lineReached) { io.errors.write(line) }
            }
        } catch let error as HealthCtlError {
            throw error
        } catch {
            throw HealthCtlError.importUnreadable(reason: "\(error)")
        }
        if io.usesStyling { io.errors.write("\r\u{1B}[K") }
        let tally = pipeline.tally
        io.output.write(tally.rendered(emphasize: io.emphasized))
        io.output.writeLine("\(tally.read) records read; samples and routes: \(tally.added) imported, \(tally.unchanged) already there, \(tally.refusedCount) refused.")
    }
}
