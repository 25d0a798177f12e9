import ArgumentParser
import Foundation
import HealthModel
import HealthWire

/// `healthctl delete`: removes samples of any source, by UUID, or by type and/or source and dates.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete samples: by UUID, or of one type and/or one source, in a date range.",
        discussion: """
            Shows how many samples would go and asks before deleting (--yes skips the question). \
            Apps that read the type learn of the deletion as deleted objects (anchored queries), \
            and the access log records that you deleted them. Deleting a workout deletes its routes. \
            --source without --type deletes what that source saved of every type (one deletion \
            per type, after one question for all).

            UUIDs are shown by `healthctl samples TYPE --json`. Dates are as for `healthctl \
            samples`: a sample is deleted when it overlaps the range.

            Examples:
              healthctl delete 0190f1c2-7a3b-7c4d-8e5f-0123456789ab
              healthctl delete --type heartRate --from 2024-05-01 --to 2024-05-01
              healthctl delete --type stepCount --source org.example.pedometer --yes
              healthctl delete --source "@import/Apple Health/iPhone" --from 2019-01-01 --to 2019-12-31
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
        if uuids.isEmpty ? (type == nil && source == nil) : type != nil {
            throw ValidationError("give the UUIDs of the samples to delete, or --type and/or --source (with --from, --to to narrow it)")
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
        if let from, let to, try from.start(in: timeZone) >= to.end(in: timeZone) {
            throw ValidationError("--from \(from.text) is not before --to \(to.text)")
        }
    }

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        // Each target is counted first (a dry run); only those that match are deleted, after one
        // question for all of them.
        var matching: [(target: ManagerDeletion.Target, count: Int)] = []
        for target in try targets(timeZone: io.timeZone) {
            let count = try await client.deleteSamples(ManagerDeletion(target, dryRun: true))
            if count > 0 { matching.append((target, count)) }
        }
        let count = matching.reduce(0) { $0 + $1.count }
        let what = type.map { "\(TypeDisplayName.words(of: $0)) sample" } ?? "sample"
        guard count > 0 else {
            io.output.writeLine("No \(what)s match; nothing was deleted.")
            return
        }
        var described = "\(count) \(what)\(count == 1 ? "" : "s")"
        if type == nil, uuids.isEmpty, let source {
            described += " of \(matching.count) type\(matching.count == 1 ? "" : "s") from \(source)"
        }
        guard yes || Confirmation.ask("Delete \(described)? This cannot be undone.", io: io) else {
            io.output.writeLine("Nothing was deleted.")
            return
        }
        var deleted = 0
        for (target, _) in matching {
            deleted += try await client.deleteSamples(ManagerDeletion(target, dryRun: false))
        }
        io.output.writeLine("Deleted \(deleted) \(what)\(deleted == 1 ? "" : "s").")
    }

    /// What to delete: the UUIDs; or one type; or, for `--source` without `--type`, every sample
    /// type (correlations first, as export orders them; a workout's routes go with it), each its
    /// own deletion — healthd deletes by type, and a correlation does not take its samples along,
    /// so the counts add up.
    func targets(timeZone: TimeZone) throws(DateArgumentError) -> [ManagerDeletion.Target] {
        if !uuids.isEmpty { return [try target(timeZone: timeZone)] }
        if type != nil { return [try target(timeZone: timeZone)] }
        return try ExportRun.ordered(ExportRun.allTypes).map { (type) throws(DateArgumentError) in try target(timeZone: timeZone, type: type) }
    }

    func target(timeZone: TimeZone, type: String? = nil) throws(DateArgumentError) -> ManagerDeletion.Target {
        guard let type = type ?? self.type else { return .uuids(uuids.compactMap(UUID.init(uuidString:))) }
        var parts: [SamplePredicate] = []
        if from != nil || to != nil {
            parts.append(.dateRange(start: try from?.start(in: timeZone), end: try to?.end(in: timeZone), strictStart: false, strictEnd: false))
        }
        if let source { parts.append(.sources([source])) }
        return .matching(typeIdentifier: type, predicate: parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts))
    }
}
