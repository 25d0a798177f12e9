import ArgumentParser
import Foundation
import HealthModel

/// `healthctl attachments list OBJECT`: one line per attachment, oldest first.
struct AttachmentsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List an object's attachments.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The object's UUID.") var object: String

    func validate() throws { _ = try AttachmentsCommand.uuid(object, "the object") }

    func run() async throws {
        let io = CommandIO.current
        let objectUUID = try AttachmentsCommand.uuid(object, "the object")
        let client = try connection.connect()
        defer { client.close() }
        let attachments = try await client.attachments(of: objectUUID)
        guard !attachments.isEmpty else {
            io.output.writeLine("No attachments on \(objectUUID.uuidString.lowercased()).")
            return
        }
        for attachment in attachments { io.output.writeLine(Self.line(attachment)) }
    }

    /// "id  size  content type  created  name": the name last, as it may hold spaces; shown
    /// through `TerminalText`, so a name cannot rewrite the terminal or turn the line around.
    static func line(_ attachment: AttachmentRecord) -> String {
        let created = ISO8601DateFormatter().string(from: attachment.creationDate)
        let name = TerminalText.shown(attachment.name)
        return "\(attachment.identifier.uuidString.lowercased())  \(attachment.size) bytes  \(TerminalText.shown(attachment.contentType))  \(created)  \(name)"
    }
}
