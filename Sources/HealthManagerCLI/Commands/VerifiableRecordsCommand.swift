import ArgumentParser
import Foundation
import HealthModel

/// `healthctl verifiable-records …`: your SMART Health Cards, which apps may ask to see one at a
/// time (HKVerifiableClinicalRecordQuery; you pick the records in `healthctl object-requests`).
struct VerifiableRecordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verifiable-records",
        abstract: "Import, list or delete your verifiable clinical records (SMART Health Cards).",
        discussion: """
            A card is imported from a .smart-health-card file, a file holding its JWS, or its \
            QR code's shc:/ text. healthd checks the card's signature only when you give the \
            issuer's keys (the JWKS published at the issuer's URL + /.well-known/jwks.json) with \
            --issuer-keys; otherwise the card is stored as unverified, and the listing says so. \
            No app sees a card until you share it in answer to the app's query.

            Examples:
              healthctl verifiable-records import vaccination.smart-health-card --issuer-keys jwks.json
              healthctl verifiable-records list
              healthctl verifiable-records delete 5d1e…
            """,
        subcommands: [VerifiableRecordsImportCommand.self, VerifiableRecordsListCommand.self, VerifiableRecordsDeleteCommand.self])

    /// A file's bytes, at most `limit` (healthd checks again; this spares sending a huge file).
    static func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ValidationError("cannot open \(what) \(path)") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
        guard data.count <= limit else { throw ValidationError("\(what) \(path) is larger than \(limit) bytes") }
        return [UInt8](data)
    }

    static func describe(_ record: VerifiableRecord, timeZone: TimeZone) -> [String] {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = timeZone
        // Every text here came from a card: each goes through `TerminalText.shown` (a type with a
        // newline forged a "signature verified" line, red team session 22).
        let types = record.recordTypes.map { TerminalText.shown($0.replacingOccurrences(of: "https://smarthealth.cards#", with: "#")) }
        var lines = ["\(record.uuid.uuidString.lowercased())  \(formatter.string(from: record.relevantDate))  "
                     + "\(TerminalText.shown(record.subjectFullName))  \(types.joined(separator: " "))"]
        lines.append("    issuer \(TerminalText.shown(record.issuerIdentifier)), issued \(formatter.string(from: record.issuedDate))"
                     + (record.expirationDate.map { ", expires \(formatter.string(from: $0))" } ?? "")
                     + ", signature \(record.verification == .verified ? "verified with the issuer keys given at import" : "not verified (no issuer keys given)")")
        if !record.itemNames.isEmpty { lines.append("    " + record.itemNames.map(TerminalText.shown).joined(separator: "; ")) }
        return lines
    }
}

struct VerifiableRecordsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import SMART Health Cards from a file.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "A .smart-health-card file, a compact JWS, or a shc:/ QR string in a file.") var file: String
    @Option(help: "The issuer's JWKS file: with it, each card's signature must verify.") var issuerKeys: String?

    func run() async throws {
        let io = CommandIO.current
        let bytes = try VerifiableRecordsCommand.read(file, limit: 1 << 20, what: "the card file")
        let keys = try issuerKeys.map { try VerifiableRecordsCommand.read($0, limit: 256 << 10, what: "the issuer key file") } ?? []
        let client = try connection.connect()
        defer { client.close() }
        let stored = try await client.importVerifiableRecords(file: bytes, issuerKeys: keys)
        io.output.writeLine("Imported \(stored.count) verifiable record\(stored.count == 1 ? "" : "s"):")
        for record in stored {
            for line in VerifiableRecordsCommand.describe(record, timeZone: io.timeZone) { io.output.writeLine("  " + line) }
        }
    }
}

struct VerifiableRecordsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your verifiable clinical records.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let io = CommandIO.current
        let client = try connection.connect()
        defer { client.close() }
        let records = try await client.verifiableRecords()
        guard !records.isEmpty else {
            io.output.writeLine("No verifiable clinical records.")
            return
        }
        for record in records {
            for line in VerifiableRecordsCommand.describe(record, timeZone: io.timeZone) { io.output.writeLine(line) }
        }
    }
}

struct VerifiableRecordsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete verifiable clinical records.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The records' UUIDs, as `verifiable-records list` shows them.") var uuids: [String]

    func validate() throws {
        for text in uuids where UUID(uuidString: text) == nil { throw ValidationError("'\(text)' is not a UUID") }
    }

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        try await client.deleteVerifiableRecords(uuids.compactMap(UUID.init(uuidString:)))
        CommandIO.current.output.writeLine("Deleted \(uuids.count) verifiable record\(uuids.count == 1 ? "" : "s").")
    }
}
