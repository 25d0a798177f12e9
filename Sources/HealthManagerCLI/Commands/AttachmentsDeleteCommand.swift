import ArgumentParser
import Foundation

/// `healthctl attachments delete OBJECT ATTACHMENT`: removes one attachment, whichever app added it.
struct AttachmentsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one attachment of an object.")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The object's UUID.") var object: String
    @Argument(help: "The attachment's id, as `attachments list` shows it.") var attachment: String

    func validate() throws {
        _ = try AttachmentsCommand.uuid(object, "the object")
        _ = try AttachmentsCommand.uuid(attachment, "the attachment")
    }

    func run() async throws {
        let objectUUID = try AttachmentsCommand.uuid(object, "the object")
        let attachmentID = try AttachmentsCommand.uuid(attachment, "the attachment")
        let client = try connection.connect()
        defer { client.close() }
        try await client.removeAttachment(attachmentID, of: objectUUID)
        CommandIO.current.output.writeLine("Deleted attachment \(attachmentID.uuidString.lowercased()).")
    }
}
