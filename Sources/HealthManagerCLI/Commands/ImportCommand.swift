import AppleHealthExport
import ArgumentParser
import Foundation
import Glibc
import HealthModel
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
            summaries are not imported (they are computed from the samples); clinical records \
            and other element kinds are not imported yet, and are counted. Workout \
            routes (inline or GPX files in the zip) are stored with their workouts.

            Example:
              healthctl import ~/Downloads/export.zip
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The export: export.zip, the apple_health_export folder, or export.xml.", valueName: "path"),
              completion: .file())
    var path: String

    enum CharacteristicsChoice: String, ExpressibleByArgument, CaseIterable {
        case ask, yes, no
    }

    @Option(help: ArgumentHelp("""
        What to do with the export's date of birth, biological sex, blood type, skin type and \
        wheelchair use where they differ from yours: ask for each (the default), set them all, or \
        leave yours as they are.
        """, valueName: "ask|yes|no"))
    var characteristics: CharacteristicsChoice = .ask

    func run() async throws {
        let io = CommandIO.current
        ImportAllocator.keepBatchBuffers()
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
            try await send(pipeline, to: client) { batch in
                if let line = progress.update(records: batch.readSoFar, line: batch.lineReached) { io.errors.write(line) }
            }
        } catch let error as HealthCtlError {
            throw error
        } catch {
            throw HealthCtlError.importUnreadable(reason: "\(error)")
        }
        if io.usesStyling { io.errors.write("\r\u{1B}[K") }
        if let found = pipeline.characteristics {
            try await applyCharacteristics(ImportedCharacteristics.records(found), client: client, io: io)
        }
        let tally = pipeline.tally
        io.output.write(tally.rendered(emphasize: io.emphasized))
        io.output.writeLine("\(tally.read) records read; samples and routes: \(tally.added) imported, \(tally.unchanged) already there, \(tally.refusedCount) refused.")
    }

    /// Sends the pipeline's batches, `ImportPipeline.maxBatchesInFlight` at a time: healthd
    /// decodes and checks the next batch while the store commits the one before (each batch is
    /// still its own transaction, so a killed import leaves whole batches). `sent` sees each batch
    /// once healthd has answered for it, in the order the answers come.
    private func send(_ pipeline: ImportPipeline, to client: ManagerClient,
                      sent: (ImportPipeline.Batch) -> Void) async throws {
        try await withThrowingTaskGroup(of: (ImportPipeline.Batch, ImportOutcome).self) { group in
            var inFlight = 0
            func finishOne() async throws {
                guard let (batch, outcome) = try await group.next() else { return }
                inFlight -= 1
                pipeline.batchSent()
                pipeline.record(batch, outcome: outcome)
                sent(batch)
            }
            for try await batch in pipeline.batches() {
                if inFlight >= ImportPipeline.maxBatchesInFlight { try await finishOne() }
                group.addTask { (batch, try await client.importSamples(batch.request)) }
                inFlight += 1
            }
            while inFlight > 0 { try await finishOne() }
        }
    }

    /// Sets the export's characteristics that differ from the user's, each only after a yes
    /// (or all with `--characteristics yes`); never silently overwrites a value the user set.
    private func applyCharacteristics(_ imported: [CharacteristicRecord], client: ManagerClient, io: CommandIO) async throws {
        guard !imported.isEmpty, characteristics != .no else { return }
        let current = Dictionary(try await client.listCharacteristics().map { ($0.typeIdentifier, $0.value) },
                                 uniquingKeysWith: { first, _ in first })
        for record in imported where current[record.typeIdentifier] ?? nil != record.value {
            let name = TypeDisplayName.words(of: record.typeIdentifier)
            let new = CharacteristicSpelling.display(record.value, of: record.typeIdentifier)
            let old = CharacteristicSpelling.display(current[record.typeIdentifier] ?? nil, of: record.typeIdentifier)
            if characteristics == .ask {
                io.output.write("Set \(name) to \(new) (now: \(old))? [y/N] ")
                guard let answer = io.input.readLine()?.trimmingCharacters(in: .whitespaces).lowercased(),
                      answer == "y" || answer == "yes" else {
                    io.output.writeLine("\(name) left as \(old).")
                    continue
                }
            }
            try await client.setCharacteristic(record)
            io.output.writeLine("\(name) set to \(new).")
        }
    }
}
