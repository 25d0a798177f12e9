import ArgumentParser
import Foundation
import HealthModel

/// `healthctl medications log-dose CONCEPT --status taken …`: one dose event, as logged in
/// Apple's Health app. Checked by healthd exactly as every save (`SampleValidator`); healthd also
/// refuses a dose for a medication you do not track.
struct MedicationsLogDoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-dose",
        abstract: "Log a dose of a medication you track (taken, skipped, …).",
        discussion: """
            Statuses: \(MedicationDoseEventValue.logStatusNames.joined(separator: ", ")). A dose is \
            as needed unless --scheduled-at is given, which needs --scheduled-dose too (HealthKit: \
            a scheduled dose always has both, an as-needed one neither). The unit is a HealthKit \
            unit (count for tablets, mg, mL). Dates are as for `healthctl samples`.

            Example:
              healthctl medications log-dose ibuprofen-200-mg --status taken --dose 2 --at 2024-05-01T08:30
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The medication's concept identifier (`healthctl medications list`).", valueName: "concept"))
    var concept: String

    @Option(help: ArgumentHelp("What happened to the dose.", valueName: "status"))
    var status: String = "taken"

    @Option(help: ArgumentHelp("The quantity taken.", valueName: "quantity"))
    var dose: Double?

    @Option(help: ArgumentHelp("The unit of the quantities.", valueName: "unit"))
    var unit: String = "count"

    @Option(help: ArgumentHelp("When it was logged (default: now).", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var at: DateArgument?

    @Option(name: .customLong("scheduled-at"), help: ArgumentHelp("When it was scheduled.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var scheduledAt: DateArgument?

    @Option(name: .customLong("scheduled-dose"), help: ArgumentHelp("The quantity scheduled.", valueName: "quantity"))
    var scheduledDose: Double?

    func validate() throws {
        _ = try doseEvent(now: Date(), timeZone: CommandIO.current.timeZone)
    }

    func run() async throws {
        let io = CommandIO.current
        let record = try doseEvent(now: Date(), timeZone: io.timeZone)
        let client = try connection.connect()
        defer { client.close() }
        let uuids = try await client.addSamples([record])
        let formatter = SampleFormatter(displayUnit: nil, timeZone: io.timeZone)
        io.output.writeLine("Logged \(status) for \(concept) at \(formatter.localTime(record.startDate)) "
                            + "(\(uuids.first?.uuidString.lowercased() ?? "no uuid")).")
    }

    /// The dose event the arguments describe, or a `ValidationError` that says what to change.
    func doseEvent(now: Date, timeZone: TimeZone) throws -> SampleRecord {
        guard let index = MedicationDoseEventValue.logStatusNames.firstIndex(of: status) else {
            throw ValidationError("--status \(status) is not a status; use one of \(MedicationDoseEventValue.logStatusNames.joined(separator: ", "))")
        }
        let date = try at?.start(in: timeZone) ?? now
        let scheduledDate = try scheduledAt?.start(in: timeZone)
        guard (scheduledDate == nil) == (scheduledDose == nil) else {
            throw ValidationError("--scheduled-at and --scheduled-dose go together: a scheduled dose has both, an as-needed one neither")
        }
        let value = MedicationDoseEventValue(
            medicationConceptIdentifier: concept,
            scheduleType: scheduledDate == nil ? MedicationDoseEventValue.asNeeded : MedicationDoseEventValue.scheduled,
            logStatus: index + 1, unit: unit, doseQuantity: dose, scheduledDoseQuantity: scheduledDose, scheduledDate: scheduledDate)
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKMedicationDoseEventTypeIdentifierMedicationDoseEvent,
                                  startDate: date, endDate: date, value: .medicationDoseEvent(value))
        // The validator healthd runs, so a mistake is reported before anything is sent.
        var checked = [record]
        do {
            try SampleValidator.canonicalize(batch: &checked)
        } catch {
            throw ValidationError(error.message)
        }
        return record
    }
}
