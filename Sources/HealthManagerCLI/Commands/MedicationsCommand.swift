import ArgumentParser

/// `healthctl medications …`: the medications you track and the doses you log (iOS 26's
/// medications; the Health app's Medications page).
struct MedicationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "medications",
        abstract: "Track your medications and log doses (apps may read them only per medication).",
        discussion: """
            Apps cannot write medications or dose events. An app reads a medication — and every \
            dose logged for it — only after it asked (requestPerObjectReadAuthorization for \
            userAnnotatedMedicationType) and you allowed that medication with \
            `healthctl object-requests --answer ID --allow UUID`. To every other app your \
            medications and doses look absent. Dose events are listed with \
            `healthctl samples medicationDoseEvent`.

            Examples:
              healthctl medications add "Ibuprofen 200 mg" --form tablet --rxnorm 310965 --nickname "Pain"
              healthctl medications list
              healthctl medications log-dose ibuprofen-200 --status taken --dose 2
              healthctl medications archive ibuprofen-200
            """,
        subcommands: [MedicationsListCommand.self, MedicationsAddCommand.self, MedicationsLogDoseCommand.self, MedicationsArchiveCommand.self],
        defaultSubcommand: MedicationsListCommand.self)
}
