import ArgumentParser
import HealthModel

/// `healthctl units show`.
struct UnitsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "List the units you chose.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let choices = try await client.listUnitPreferences()
        let io = CommandIO.current
        guard !choices.isEmpty else {
            io.output.writeLine("No units chosen: apps use their locale's defaults.")
            return
        }
        var table = TextTable([.init("TYPE"), .init("UNIT")])
        for choice in choices.sorted(by: { TypeDisplayName.words(of: $0.typeIdentifier) < TypeDisplayName.words(of: $1.typeIdentifier) }) {
            table.append([TypeDisplayName.words(of: choice.typeIdentifier), choice.unit])
        }
        io.output.write(table.rendered(emphasize: io.emphasized))
    }
}
