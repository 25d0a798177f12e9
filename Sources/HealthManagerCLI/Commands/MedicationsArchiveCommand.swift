import ArgumentParser

/// `healthctl medications archive CONCEPT [--restore]`: moves a medication to the archive (or back).
struct MedicationsArchiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Move a medication to the archive (isArchived), or back with --restore.",
        discussion: """
            Apps you allowed to read the medication see it archived at their next query; its \
            doses stay.

            Example:
              healthctl medications archive ibuprofen-200-mg
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The medication's concept identifier (`healthctl medications list`).", valueName: "concept"))
    var concept: String

    @Flag(help: "Take the medication out of the archive.")
    var restore = false

    func validate() throws {
        guard !concept.isEmpty else { throw ValidationError("give the medication's concept identifier") }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.archiveMedication(concept, archived: !restore)
        CommandIO.current.output.writeLine(restore ? "Restored \(concept) from the archive." : "Archived \(concept).")
    }
}
