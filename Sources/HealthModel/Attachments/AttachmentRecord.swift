public import Foundation

/// One attachment as healthd stores and lists it (HKAttachment's properties), with the object
/// it belongs to.
public struct AttachmentRecord: Sendable, Equatable {
    public var identifier: UUID
    public var objectUUID: UUID
    public var name: String
    /// The uniform type identifier (UTType.identifier).
    public var contentType: String
    public var size: Int
    public var creationDate: Date
    public var metadata: [String: MetadataValue]

    public init(identifier: UUID, objectUUID: UUID, name: String, contentType: String, size: Int,
                creationDate: Date, metadata: [String: MetadataValue]) {
        self.identifier = identifier
        self.objectUUID = objectUUID
        self.name = name
        self.contentType = contentType
        self.size = size
        self.creationDate = creationDate
        self.metadata = metadata
    }
}
