import ArgumentParser
import HealthModel

/// `healthctl sources list [TYPE]`.
struct SourcesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the sources of one type in priority order, or every source.",
        discussion: """
            With a type: every app that saved samples of it or that you placed in its order, \
            highest priority first. ORDER says whether you placed it ("yours") or it follows \
            the default order (by app id). Without a type: every app that saved data, and every installed \
            app, with all its samples counted. Apps appear whatever their permissions: this is \
            your own data.

            Examples:
              healthctl sources list stepCount
              healthctl sources list
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("A quantity type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String?

    func validate() throws {
        if let type { try SourcesPriorityCommand.checkQuantityType(type) }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let sources = try await client.listSources(typeIdentifier: type)
        let io = CommandIO.current
        guard !sources.isEmpty else {
            io.output.writeLine(type.map { "No app has saved \(TypeDisplayName.words(of: $0)) samples yet." }
                                ?? "No app has saved data or been installed yet.")
            return
        }
        io.output.write(Self.table(sources, ranked: type != nil).rendered(emphasize: io.emphasized))
    }

    static func table(_ sources: [SourceEntry], ranked: Bool) -> TextTable {
        var columns: [TextTable.Column] = ranked ? [.init("#", .right)] : []
        columns += [.init("APP"), .init("NAME"), .init("SAMPLES", .right), .init("INSTALLED")]
        if ranked { columns.append(.init("ORDER")) }
        var table = TextTable(columns)
        for (index, source) in sources.enumerated() {
            var cells = ranked ? ["\(index + 1)"] : []
            cells += [source.appID, source.name, String(source.sampleCount), source.installed ? "yes" : "no"]
            if ranked { cells.append(source.orderedByUser ? "yours" : "default") }
            table.append(cells)
        }
        return table
    }
}
