import ArgumentParser
import Foundation
import HealthWire

/// `healthctl object-grants APP [--revoke UUID,… | --revoke-all]`: the individual objects (vision
/// prescriptions) an app may read, and taking them back. Takes effect at once.
struct ObjectGrantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "object-grants",
        abstract: "List or revoke the individual objects (vision prescriptions) an app may read.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The app's id.") var appID: String
    @Option(help: "UUIDs of objects the app may no longer read, comma-separated.") var revoke: String?
    @Flag(help: "Revoke every object grant of the app.") var revokeAll = false

    func validate() throws {
        if revoke != nil, revokeAll { throw ValidationError("give --revoke or --revoke-all, not both") }
        for text in ObjectRequestsCommand.split(revoke) where UUID(uuidString: text) == nil {
            throw ValidationError("'\(text)' is not a UUID")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        if revokeAll || revoke != nil {
            let uuids = revokeAll ? nil : ObjectRequestsCommand.split(revoke).compactMap(UUID.init(uuidString:))
            try await client.revokeObjectReadGrants(appID: appID, uuids: uuids)
            io.output.writeLine("Revoked \(revokeAll ? "every object grant" : "\(uuids?.count ?? 0) object grant(s)") of \(appID).")
            return
        }
        let granted = try await client.objectReadGrants(appID: appID)
        io.output.writeLine(granted.isEmpty ? "\(appID) may read no individual objects."
                                            : "\(appID) may read \(granted.count) individual object(s):")
        for uuid in granted { io.output.writeLine("  \(uuid.uuidString.lowercased())") }
    }
}
