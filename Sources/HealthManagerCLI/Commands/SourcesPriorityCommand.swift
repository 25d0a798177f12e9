import ArgumentParser
import HealthModel

/// `healthctl sources priority TYPE APP_ID… | --reset`.
struct SourcesPriorityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "priority",
        abstract: "Set which apps' samples of a type statistics trust first.",
        discussion: """
            Lists app ids highest priority first; the order replaces the type's previous one. \
            Apps left out follow in the default order: by app id, alphabetically (not by when \
            they first saved: that would let data a reader may not see decide its answers). \
            --reset forgets your order. Prints the resulting order.

            Examples:
              healthctl sources priority stepCount com.example.watch com.example.phone
              healthctl sources priority stepCount --reset
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("A quantity type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
              completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String

    @Argument(help: ArgumentHelp("App ids, highest priority first (see `healthctl sources list TYPE`).", valueName: "app-id"))
    var appIDs: [String] = []

    @Flag(help: "Forget your order for the type and use the default one.")
    var reset = false

    func validate() throws {
        try Self.checkQuantityType(type)
        if reset, !appIDs.isEmpty { throw ValidationError("give app ids or --reset, not both") }
        if !reset, appIDs.isEmpty { throw ValidationError("give the app ids in priority order, or --reset") }
        if let repeated = appIDs.first(where: { id in appIDs.filter { $0 == id }.count > 1 }) {
            throw ValidationError("\(repeated) is listed twice")
        }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        if reset {
            try await client.resetSourcePriority(typeIdentifier: type)
        } else {
            try await client.setSourcePriority(typeIdentifier: type, appIDs: appIDs)
        }
        let io = CommandIO.current
        let sources = try await client.listSources(typeIdentifier: type)
        io.output.writeLine("\(TypeDisplayName.words(of: type).capitalizedFirst) sources, highest priority first:")
        io.output.write(SourcesListCommand.table(sources, ranked: true).rendered(emphasize: io.emphasized))
    }

    /// Priority orders the sources statistics merge, which only quantity types have.
    static func checkQuantityType(_ identifier: String) throws {
        guard HKObjectType.type(forIdentifier: identifier) is HKQuantityType else {
            throw ValidationError("\(TypeDisplayName.words(of: identifier)) is not a quantity type; source priority "
                                  + "applies to types with statistics, such as stepCount or heartRate")
        }
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
