import ArgumentParser
import Foundation
import HealthModel
import HealthWire

/// `healthctl object-requests [--answer ID [--allow UUID,…]]`: the apps' pending per-object read
/// requests (vision prescriptions and medications, HealthKit's `requestPerObjectReadAuthorization`;
/// CDA documents a document query offered, each document once; verifiable clinical records an
/// HKVerifiableClinicalRecordQuery asks to be shared, once), each with every matching object, and
/// the user's answer: which of them the app may read (for verifiable records: receives now; none
/// allowed is the query cancelled, errorUserCanceled).
struct ObjectRequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "object-requests",
        abstract: "List or answer apps' requests to read individual objects (vision prescriptions, medications, CDA documents, verifiable clinical records).",
        discussion: """
            Without options, lists each pending request with the objects it may be granted. \
            --answer ID grants the objects given with --allow (their UUIDs, comma-separated) and \
            withdraws any earlier grant of the request's other objects; without --allow the app \
            may read none of them. The app's request returns once answered. A document query's \
            offer waits for no call: the documents allowed reach the app at its next read.

            Example:
              healthctl object-requests --answer 1 --allow 0190c0de-…
            """)

    @OptionGroup var connection: ConnectionOptions
    @Option(help: "The request to answer.") var answer: UInt64?
    @Option(help: "UUIDs of the objects the app may read, comma-separated.") var allow: String?

    func validate() throws {
        if allow != nil, answer == nil { throw ValidationError("--allow needs --answer ID") }
        for text in Self.split(allow) where UUID(uuidString: text) == nil {
            throw ValidationError("'\(text)' is not a UUID")
        }
    }

    static func split(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        if let answer {
            let uuids = Self.split(allow).compactMap(UUID.init(uuidString:))
            try await client.answerPerObjectRequest(answer, allowing: uuids)
            io.output.writeLine("Answered request \(answer): \(uuids.count) object\(uuids.count == 1 ? "" : "s") allowed.")
            return
        }
        let prompts = try await client.perObjectRequests()
        guard !prompts.isEmpty else {
            io.output.writeLine("No pending per-object requests.")
            return
        }
        let formatter = SampleFormatter(displayUnit: nil, timeZone: io.timeZone)
        // The records verifiable-record queries offer are shown with their own fields: only those
        // records, read once, as summaries. Failing to read them hides no request: each such
        // request then says so, and the others are listed as ever.
        var verifiable: Result<[UUID: VerifiableRecord], HealthCtlError> = .success([:])
        // Each record once, in the order first offered: requests over the same records would
        // otherwise add up past healthd's selection cap (1,000 UUIDs, the store's own maximum).
        var seen = Set<UUID>()
        let offered = prompts.filter { $0.typeIdentifier == VerifiableRecord.promptTypeIdentifier }
            .flatMap { $0.candidates.map(\.uuid) }
            .filter { seen.insert($0).inserted }
        if !offered.isEmpty {
            do throws(HealthCtlError) {
                let records = try await client.verifiableRecords(offered)
                verifiable = .success(Dictionary(records.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first }))
            } catch {
                verifiable = .failure(error)
            }
        }
        for prompt in prompts {
            if prompt.typeIdentifier == VerifiableRecord.promptTypeIdentifier {
                io.output.writeLine("Request \(prompt.requestID): \(TerminalText.shown(prompt.appDisplayName)) "
                                    + "(\(TerminalText.shown(prompt.appID))) asks you to share verifiable clinical records, once: "
                                    + TerminalText.shown(prompt.readUsageDescription))
                if case let .failure(error) = verifiable, !prompt.candidates.isEmpty {
                    io.output.writeLine("  (its \(prompt.candidates.count) records could not be listed: \(TerminalText.shown("\(error)")))")
                }
                for candidate in prompt.candidates {
                    guard case let .success(records) = verifiable, let record = records[candidate.uuid] else { continue }
                    for line in VerifiableRecordsCommand.describe(record, timeZone: io.timeZone) { io.output.writeLine("  " + line) }
                }
                if prompt.candidates.isEmpty { io.output.writeLine("  (nothing matches)") }
                continue
            }
            io.output.writeLine("Request \(prompt.requestID): \(TerminalText.shown(prompt.appDisplayName)) "
                                + "(\(TerminalText.shown(prompt.appID))) asks to read "
                                + "\(TypeDisplayName.words(of: prompt.typeIdentifier)): \(TerminalText.shown(prompt.readUsageDescription))")
            let documents = try await DocumentCandidateText.details(of: prompt, client: client)
            for candidate in prompt.candidates {
                let (value, detail) = documents[candidate.uuid].map { (value: "CDA document", unit: $0) }
                    ?? formatter.displayedValue(candidate.value, typeIdentifier: candidate.typeIdentifier)
                io.output.writeLine("  \(candidate.uuid.uuidString.lowercased())  \(formatter.localTime(candidate.startDate))  "
                                    + "\(TerminalText.shown(value))  \(TerminalText.shown(detail))  "
                                    + "from \(TerminalText.shown(SourceLabel.text(candidate.source)))")
            }
            if prompt.candidates.isEmpty { io.output.writeLine("  (nothing matches)") }
        }
    }
}
