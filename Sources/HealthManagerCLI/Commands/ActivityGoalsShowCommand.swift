import ArgumentParser
import HealthModel

/// `healthctl activity goals show`.
struct ActivityGoalsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "List your goals and the day each change applies from.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let schedule = try await client.listActivityGoals()
        let io = CommandIO.current
        guard !schedule.changes.isEmpty else {
            io.output.writeLine("No activity goals set.")
            return
        }
        io.output.write(ActivityTables.goals(schedule).rendered(emphasize: io.emphasized))
    }
}
