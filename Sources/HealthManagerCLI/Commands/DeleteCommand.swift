import ArgumentParser
import Foundation
import HealthModel
import HealthWire

/// `healthctl delete`: removes samples of any source, by UUID or by type, dates and source.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete samples: by UUID, or of one type in a date range (and from one source).",
        discussion: """
            Shows how many samples would go and asks before deleting (--yes skips the question). \
            Apps that read the type learn of the deletion as deleted objects (anchored queries), \
            and the access log records that you deleted them. Deleting a workout deletes its routes.

            UUIDs are shown by `healthctl samples TYPE --json`. Dates are as for `healthctl \
            samples`: a sample is deleted when it overlaps the range.

            Examples:
              healthctl delete 0190f1c2-7a3b-7c4d-8e5f-0123456789ab
              healthctl delete --type heartRate --from 2024-05-01 --to 2024-05-01
              healthctl delete --type stepCount --source org.example.pedometer --yes
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The UUIDs of the samples to delete.", valueName: "uuid"))
    var uuids: [String] = []

    @Option(help: ArgumentHelp("Delete samples of this type: \(HealthTypeArgument.valueHelp).", valueName: "type"),
            completion: HealthTypeArgument.completion, transform: HealthTypeArgument.identifier)
    var type: String?

    @Option(help: ArgumentHelp("Only samples that end at or after this date.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var from: DateArgument?

    @Option(help: ArgumentHelp("Only samples that start before this date.", valueName: "date"),
            transform: { text in try DateArgument(parsing: text) })
    var to: DateArgument?

    @Option(help: ArgumentHelp("Only samples saved by this source (an app id; see `healthctl sources list`).", valueName: "source"))
    var source: String?

    @Flag(help: "Delete without asking.")
    var yes = false

    func validate() throws {
        if uuids.isEmpty == (type == nil) {
            throw ValidationError("give the UUIDs of the samples to delete, or --type (with --from, --to, --source to narrow it)")
        }
        if !uuids.isEmpty, from != nil || to != nil || source != nil {
            throw ValidationError("--from, --to and --source go with --type, not with UUIDs")
        }
        for text in uuids where UUID(uuidString: text) == nil {
            throw ValidationError("\(text) is not a UUID (like 0190f1c2-7a3b-7c4d-8e5f-0123456789ab)")
        }
        if let type, !(HKObjectType.type(forIdentifier: type) is HKSampleType) {
            throw ValidationError("\(TypeDisplayName.words(of: type)) is not a sample type; only samples can be deleted")
        }
        let timeZone = CommandIO.current.timeZone
        if let from, let to, from.start(in: timeZone) >= to.end(in: timeZone) {
            throw ValidationError("--from \(from.text) is not before --to \(to.text)")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let target = self.target(timeZone: io.timeZone)
        let client = try connection.connect()
        defer { client.close() }
        let count = try await client.deleteSamples(ManagerDeletion(target, dryRun: true))
        let what = type.map { "\(TypeDisplayName.words(of: $0)) sample" } ?? "sample"
        guard count > 0 else {
            io.output.writeLine("No \(what)s match; nothing was deleted.")
            return
        }
        let described = "\(count) \(what)\(count == 1 ? "" : "s")"
        guard yes || Confirmation.ask("Delete \(described)? This cannot be undone.", io: io) else {
            io.output.writeLine("Nothing was deleted.")
            return
        }
        let deleted = try await client.deleteSamples(ManagerDeletion(target, dryRun: false))
        io.output.writeLine("Deleted \(deleted) \(what)\(deleted == 1 ? "" : "s").")
    }

    func target(timeZone: TimeZone) -> ManagerDeletion.Target {
        guard let type else { return .uuids(uuids.compactMap(UUID.init(uuidString:))) }
        var parts: [SamplePredicate] = []
        if from != nil || to != nil {
            parts.append(.dateRange(start: from?.start(in: timeZone), end: to?.end(in: timeZone), strictStart: false, strictEnd: false))
        }
        if let source { parts.append(.sources([source])) }
        return .matching(typeIdentifier: type, predicate: parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts))
    }
}
