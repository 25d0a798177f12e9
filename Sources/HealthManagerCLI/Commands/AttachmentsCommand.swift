import ArgumentParser
import Foundation

/// `healthctl attachments …`: the files attached to your objects (prescription scans and photos).
struct AttachmentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments",
        abstract: "List, save or delete the files attached to an object (a vision prescription's scans).",
        discussion: """
            Apps attach files (an image or PDF of a prescription) to the objects they save; \
            healthd keeps them in your encrypted store. Objects are named by UUID, as \
            `healthctl samples visionPrescription` shows them.

            Examples:
              healthctl attachments list 0190f1c2-…
              healthctl attachments save 0190f1c2-… 5d1e…  prescription.pdf
              healthctl attachments delete 0190f1c2-… 5d1e…
            """,
        subcommands: [AttachmentsListCommand.self, AttachmentsSaveCommand.self, AttachmentsDeleteCommand.self])

    /// A UUID argument, or a usage error naming what it should have been.
    static func uuid(_ text: String, _ what: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else { throw ValidationError("'\(text)' is not a UUID (\(what))") }
        return uuid
    }
}
