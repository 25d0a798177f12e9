import AppleHealthExport
import ArgumentParser
import Foundation
import HealthModel

/// `healthctl export PATH`: takes the user's data out, as Apple's export.zip, CSV or JSON lines.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export your data: Apple Health's export.zip, a folder of CSV files, or JSON lines.",
        discussion: """
            --format apple (the default) writes export.zip as the Health app shares it: \
            apple_health_export/export.xml (Apple's DTD) with every record, correlation and workout, \
            each workout's route as a GPX file under workout-routes/, and your characteristics. \
            `healthctl import` of it into an empty store gives back the same samples, and tools \
            that read Apple's exports read it.

            --format csv writes a folder with one CSV file per type; --format json one JSON object \
            per sample per line, and the CSV folder holds each workout route as a GPX file under \
            workout-routes/ for mapping tools. Quantities are in your preferred units (`healthctl units`).

            The export is written privately (readable by you only) and appears under its name only \
            when complete; memory use does not grow with the store's size. A sample is exported \
            when it overlaps --from/--to (dates as for `healthctl samples`) and, with --source, \
            was saved by one of those sources.

            Examples:
              healthctl export ~/export.zip
              healthctl export ~/health-csv --format csv --types stepCount,heartRate --from 2024-01-01
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case apple, csv, json
    }

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("Where to write: a new .zip (apple), a new folder (csv) or a file (json).", valueName: "path"),
              completion: .file())
    var path: String

    @Option(help: ArgumentHelp("apple (export.zip), csv (a folder of CSV files) or json (JSON lines).", valueName: "format"))
    var format: Format = .apple

    @Option(help: ArgumentHelp("Only these types, comma-separated: \(HealthTypeArgument.valueHelp).", valueName: "types"),
            transform: ExportCommand.parseTypes)
    var types: [String]?

    @Option(help: ArgumentHelp("Only samples that end at or after this date.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var from: DateArgument?

    @Option(help: ArgumentHelp("Only samples that start before this date.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var to: DateArgument?

    @Option(name: .customLong("source"),
            help: ArgumentHelp("Only samples saved by this source (an app id or an import's, see `healthctl sources list`); repeat for more.",
                               valueName: "source"))
    var sources: [String] = []

    func validate() throws {
        for type in types ?? [] where !ExportRun.allTypes.contains(type) {
            throw ValidationError("\(TypeDisplayName.words(of: type)) cannot be exported on its own; export quantity, category, correlation, workout, assessment (GAD7, PHQ9), audiogram, document (CDA) or clinical record types (routes go with their workouts)")
        }
        let timeZone = CommandIO.current.timeZone
        if let from, let to, try from.start(in: timeZone) >= to.end(in: timeZone) {
            throw ValidationError("--from \(from.text) is not before --to \(to.text)")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        let destination = URL(fileURLWithPath: path)
        let units = ExportUnits(preferences: try await client.listUnitPreferences())
        let now = Date()
        let sink: any ExportSink
        switch format {
        case .apple:
            let writer = ExportXMLWriter(timeZone: io.timeZone, unit: { units.unit(for: $0) })
            sink = try AppleExportSink(destination: destination, writer: writer,
                                       characteristics: try await client.listCharacteristics(), exportDate: now)
        case .csv:
            sink = try CSVExportSink(destination: destination, units: units)
        case .json:
            sink = try JSONLinesExportSink(destination: destination, units: units)
        }
        let run = ExportRun(client: client, types: types ?? ExportRun.allTypes,
                            start: try from?.start(in: io.timeZone), end: try to?.end(in: io.timeZone), sources: sources)
        var progress = ExportProgress(interactive: io.usesStyling)
        let summary: ExportRun.Summary
        do {
            summary = try await run.run(into: sink) { done, total, samples in
                if let line = progress.update(typesDone: done, typesTotal: total, samples: samples) { io.errors.write(line) }
            }
        } catch {
            sink.discard()
            throw error
        }
        if io.usesStyling { io.errors.write("\r\u{1B}[K") }
        for (type, count) in summary.counts {
            io.output.writeLine("\(TypeDisplayName.words(of: type)): \(count)")
        }
        if summary.electrocardiograms > 0 { io.output.writeLine("Electrocardiograms: \(summary.electrocardiograms)") }
        let routes = summary.routes > 0 ? " and \(summary.routes) route\(summary.routes == 1 ? "" : "s")" : ""
        io.output.writeLine("Exported \(summary.total) sample\(summary.total == 1 ? "" : "s")\(routes) to \(destination.standardizedFileURL.path).")
        do {
            try ExportHistory(date: now, path: destination.standardizedFileURL.path, format: format.rawValue, samples: summary.total).save()
        } catch {
            io.errors.writeLine(ErrorLines.line("the export is complete, but its time could not be recorded for `healthctl status`: \(error.localizedDescription)"))
        }
    }

    static func parseTypes(_ text: String) throws -> [String] {
        try text.split(separator: ",").map { try HealthTypeArgument.identifier(String($0).trimmingCharacters(in: .whitespaces)) }
    }
}
