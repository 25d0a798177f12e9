import ArgumentParser
import Foundation
import HealthModel

/// `healthctl medications add NAME --form FORM …`: a medication to track, as added in Apple's
/// Health app. Checked by healthd exactly as every save (`SampleValidator`).
struct MedicationsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a medication to track.",
        discussion: """
            NAME is the medication's display text (as chosen when adding it in Apple's Health \
            app). Its concept identifier — what dose events and apps use to name it — is \
            --concept, or derived from NAME (lower case, words joined by '-'). Codings are given \
            as SYSTEM|CODE or SYSTEM|CODE|VERSION; --rxnorm CODE is the RxNorm coding.

            Forms: \(MedicationGeneralForms.all.joined(separator: ", ")).

            Example:
              healthctl medications add "Ibuprofen 200 mg" --form tablet --rxnorm 310965 --scheduled
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The medication's name (display text).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Its general form.", valueName: "form"))
    var form: String = "unknown"

    @Option(help: ArgumentHelp("Its concept identifier (default: derived from the name).", valueName: "concept"))
    var concept: String?

    @Option(help: ArgumentHelp("Your nickname for it.", valueName: "nickname"))
    var nickname: String?

    @Option(help: ArgumentHelp("Its RxNorm code.", valueName: "code"))
    var rxnorm: String?

    @Option(name: .customLong("coding"), help: ArgumentHelp("A clinical coding SYSTEM|CODE[|VERSION]; repeat for more.", valueName: "coding"))
    var codings: [String] = []

    @Flag(help: "You take it on a schedule (reminders set up).")
    var scheduled = false

    @Option(help: ArgumentHelp("When you started tracking it (default: now). Dates are as for `healthctl samples`.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var at: DateArgument?

    static let rxnormSystem = "http://www.nlm.nih.gov/research/umls/rxnorm"

    func validate() throws {
        _ = try medication(now: Date(), timeZone: CommandIO.current.timeZone)
    }

    func run() async throws {
        let record = try medication(now: Date(), timeZone: CommandIO.current.timeZone)
        let client = try connection.connect()
        defer { client.close() }
        let uuids = try await client.addSamples([record])
        guard case let .userAnnotatedMedication(value) = record.value else { return }
        CommandIO.current.output.writeLine("Added \(MedicationText.name(value)) as \(value.conceptIdentifier) "
                                           + "(\(uuids.first?.uuidString.lowercased() ?? "no uuid")).")
    }

    /// The medication the arguments describe, or a `ValidationError` that says what to change.
    func medication(now: Date, timeZone: TimeZone) throws -> SampleRecord {
        let added = try at?.start(in: timeZone) ?? now
        guard MedicationGeneralForms.all.contains(form) else {
            throw ValidationError("--form \(form) is not a form; use one of \(MedicationGeneralForms.all.joined(separator: ", "))")
        }
        let conceptIdentifier = concept ?? Self.derivedConcept(name)
        guard !conceptIdentifier.isEmpty else { throw ValidationError("give a --concept identifier: none can be derived from the name") }
        var related: [ClinicalCodingValue] = rxnorm.map { [ClinicalCodingValue(system: Self.rxnormSystem, code: $0)] } ?? []
        for text in codings {
            let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else { throw ValidationError("--coding \(text) is not SYSTEM|CODE or SYSTEM|CODE|VERSION") }
            related.append(ClinicalCodingValue(system: parts[0], version: parts.count == 3 ? parts[2] : nil, code: parts[1]))
        }
        let value = UserAnnotatedMedicationValue(conceptIdentifier: conceptIdentifier, displayText: name, generalForm: form,
                                                 relatedCodings: related, nickname: nickname, hasSchedule: scheduled)
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept,
                                  startDate: added, endDate: added, value: .userAnnotatedMedication(value))
        // The validator healthd runs, so a mistake is reported before anything is sent.
        var checked = [record]
        do {
            try SampleValidator.canonicalize(batch: &checked)
        } catch {
            throw ValidationError(error.message)
        }
        return record
    }

    /// "Ibuprofen 200 mg" → "ibuprofen-200-mg": letters and digits, lower case, joined by '-'.
    static func derivedConcept(_ name: String) -> String {
        name.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: "-")
    }
}
