import ArgumentParser
import Foundation
import HealthModel

/// `healthctl medications list [--archived]`: the medications you track.
struct MedicationsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the medications you track, with their concept identifiers.",
        discussion: """
            Each line: concept identifier, name (nickname first), form, codings, whether it is \
            scheduled or archived, when it was added and its UUID (what `healthctl object-requests \
            --allow` takes).

            Example:
              healthctl medications list --archived
            """)

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "List archived medications too.")
    var archived = false

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        let formatter = SampleFormatter(displayUnit: nil, timeZone: io.timeZone)
        let medications = try await client.medications().compactMap { record -> (SampleRecord, UserAnnotatedMedicationValue)? in
            guard case let .userAnnotatedMedication(value) = record.value, archived || !value.isArchived else { return nil }
            return (record, value)
        }
        guard !medications.isEmpty else {
            io.output.writeLine(archived ? "No medications." : "No medications (archived ones are listed with --archived).")
            return
        }
        for (record, medication) in medications {
            // Names and codings may come from an import or a bidi-override paste: shown, never obeyed.
            io.output.writeLine("\(medication.conceptIdentifier)  \(TerminalText.shown(MedicationText.name(medication)))  "
                                + "\(TerminalText.shown(MedicationText.detail(medication)))  added \(formatter.localTime(record.startDate))  "
                                + "(\(record.uuid.uuidString.lowercased()))")
        }
    }
}
