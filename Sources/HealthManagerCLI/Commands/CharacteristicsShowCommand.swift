import ArgumentParser
import HealthModel

/// `healthctl characteristics show`.
struct CharacteristicsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "List every characteristic with its value.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let records = try await client.listCharacteristics()
        let io = CommandIO.current
        io.output.write(Self.table(records).rendered(emphasize: io.emphasized))
    }

    /// One row per characteristic, in the order healthd lists them.
    static func table(_ records: [CharacteristicRecord]) -> TextTable {
        var table = TextTable([.init("CHARACTERISTIC"), .init("VALUE")])
        for record in records {
            table.append([TypeDisplayName.words(of: record.typeIdentifier),
                          CharacteristicSpelling.display(record.value, of: record.typeIdentifier)])
        }
        return table
    }
}
