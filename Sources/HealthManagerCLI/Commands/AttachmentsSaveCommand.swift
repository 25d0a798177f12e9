import ArgumentParser
import Foundation

/// `healthctl attachments save OBJECT ATTACHMENT FILE`: the attachment's bytes into FILE, readable
/// by you alone (0600), written beside it and renamed into place only once whole.
struct AttachmentsSaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "save",
                                                    abstract: "Save an attachment to a file (mode 0600; replaced only once complete).")

    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The object's UUID.") var object: String
    @Argument(help: "The attachment's id, as `attachments list` shows it.") var attachment: String
    @Argument(help: "The file to write.") var file: String

    func validate() throws {
        _ = try AttachmentsCommand.uuid(object, "the object")
        _ = try AttachmentsCommand.uuid(attachment, "the attachment")
    }

    func run() async throws {
        let io = CommandIO.current
        let objectUUID = try AttachmentsCommand.uuid(object, "the object")
        let attachmentID = try AttachmentsCommand.uuid(attachment, "the attachment")
        var output = try StagedOutput(destination: URL(fileURLWithPath: file), kind: .file)
        let client = try connection.connect()
        defer { client.close() }
        var written = 0
        do {
            let handle = try output.createFile()
            defer { try? handle.close() }
            for try await chunk in client.attachmentData(attachmentID, of: objectUUID) {
                try Self.write(chunk.data, to: handle, path: output.staged.path)
                written += chunk.data.count
            }
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
        io.output.writeLine("Saved \(written) bytes to \(output.destination.path).")
    }

    private static func write(_ bytes: [UInt8], to handle: FileHandle, path: String) throws(HealthCtlError) {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw .exportFailed(path: path, reason: "cannot write it (\(error.localizedDescription))")
        }
    }
}
