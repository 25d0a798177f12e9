import ArgumentParser
import Foundation
import HealthModel
import HealthWire

/// `healthctl samples TYPE`: browse the samples of one type, oldest first.
struct SamplesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Browse the samples of one type.",
        discussion: """
            Lists samples oldest first with start, end, value, unit, source and device. \
            A sample is listed when it overlaps the range. SOURCE says who saved it: an app as \
            NAME (APP-ID), your own entries (`healthctl add`) as "Health (you)", imported data as \
            NAME (ORIGIN). An app chooses its name, never its id: go by the id.

            Dates are ISO 8601: a day (2024-05-01) or a date and time (2024-05-01T08:30, \
            2024-05-01T08:30:00Z, 2024-05-01T08:30+02:00), read in your time zone unless a zone \
            is given. A day given to --to includes that day.

            The table shows quantities in your preferred unit (`healthctl units`) unless --unit is \
            given. --json prints one JSON object per line as the samples arrive, with dates in UTC \
            and each value in the unit it is stored in (or --unit's).

            Workouts have an EFFORT column: the effort scores apps related to the workout or to \
            one of its activities (iOS 18's workout effort), every app's.

            Examples:
              healthctl samples heartRate --from 2024-05-01 --to 2024-05-07 --unit count/s
              healthctl samples stepCount --limit 10 --json
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The sample type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String

    @Option(help: ArgumentHelp("Only samples that end at or after this date.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var from: DateArgument?

    @Option(help: ArgumentHelp("Only samples that start before this date.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var to: DateArgument?

    @Option(help: ArgumentHelp("At most this many samples.", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Show quantities in this HealthKit unit (e.g. kg, lb, count/min, degF, mg/dL).",
                               valueName: "unit"),
            transform: SamplesCommand.parseUnit)
    var unit: HKUnit?

    @Flag(help: "Print one JSON object per line instead of a table.")
    var json = false

    func validate() throws {
        guard let sampleType = HKObjectType.type(forIdentifier: type) as? HKSampleType else {
            throw ValidationError("\(TypeDisplayName.words(of: type)) is not a sample type; samples lists types such as heartRate or sleepAnalysis")
        }
        if let unit {
            guard let quantityType = sampleType as? HKQuantityType else {
                throw ValidationError("--unit applies to quantity types; \(TypeDisplayName.words(of: type)) samples have no unit")
            }
            if !quantityType.is(compatibleWith: unit) {
                throw ValidationError("\(unit.unitString) does not measure \(TypeDisplayName.words(of: type)) (its unit is \(quantityType.canonicalUnit.unitString))")
            }
        }
        if let limit, limit <= 0 { throw ValidationError("--limit must be a positive number") }
        let timeZone = CommandIO.current.timeZone
        if let from, let to, try from.start(in: timeZone) >= to.end(in: timeZone) {
            throw ValidationError("--from \(from.text) is not before --to \(to.text)")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        let formatter = SampleFormatter(displayUnit: unit, timeZone: io.timeZone)
        // A person reads heart rate in count/min and body mass in their kg or lb, not in the
        // canonical unit a sample is stored in. Preferences that cannot be read leave the
        // stored units: the listing matters more than its units.
        let tableFormatter = unit == nil && !json
            ? SampleFormatter(displayUnit: try? await preferredUnit(client: client), timeZone: io.timeZone) : formatter
        var listed: [SampleRecord] = []
        // JSON lines stream as batches arrive; a table needs every row to size its columns.
        for try await batch in client.querySamples(try querySpec(timeZone: io.timeZone)) {
            for sample in batch.samples {
                if json { io.output.writeLine(formatter.jsonLine(sample)) } else { listed.append(sample) }
            }
        }
        if json { return }
        var table: TextTable
        if type == HKWorkoutTypeIdentifier {
            let effort = try await WorkoutEffortText.column(for: listed, client: client)
            table = TextTable(SampleFormatter.tableColumns + [.init("EFFORT")])
            for sample in listed { table.append(tableFormatter.tableRow(sample) + [effort[sample.uuid] ?? ""]) }
        } else {
            table = TextTable(SampleFormatter.tableColumns)
            for sample in listed { table.append(tableFormatter.tableRow(sample)) }
        }
        if table.rows.isEmpty {
            io.output.writeLine("No \(TypeDisplayName.words(of: type)) samples\(from == nil && to == nil ? "" : " in that range").")
        } else {
            io.output.write(table.rendered(emphasize: io.emphasized))
        }
    }

    /// The user's unit for a quantity type (`healthctl units`, else the locale's), nil for others.
    func preferredUnit(client: ManagerClient) async throws -> HKUnit? {
        guard let quantityType = HKObjectType.type(forIdentifier: type) as? HKQuantityType else { return nil }
        return ExportUnits(preferences: try await client.listUnitPreferences()).unit(for: quantityType)
    }

    func querySpec(timeZone: TimeZone) throws(DateArgumentError) -> SampleQuerySpec {
        let start = try from?.start(in: timeZone), end = try to?.end(in: timeZone)
        let predicate: SamplePredicate? = start == nil && end == nil
            ? nil : .dateRange(start: start, end: end, strictStart: false, strictEnd: false)
        return SampleQuerySpec(typeIdentifier: type, predicate: predicate, sort: [SampleSort(.startDate, ascending: true)],
                               limit: limit ?? 0)
    }

    static func parseUnit(_ text: String) throws -> HKUnit {
        do {
            return try HKUnit.parse(text)
        } catch {
            throw ValidationError(error.message)
        }
    }
}
