public import Foundation
import HealthModel

/// A file attached to an object in the store, as HealthKit's `HKAttachment` (iOS 16+): "A file
/// that is attached to a sample in the HealthKit store"
/// (developer.apple.com/documentation/healthkit/hkattachment). Made only by the attachment
/// store (`HKAttachmentStore.addAttachment`, `attachments(for:)`); its bytes are read with
/// `HKAttachmentStore.dataReader(for:)`, `getData(for:completion:)` or `streamData(for:dataHandler:)`.
/// Immutable, so a copy is the object itself; two attachments are equal when their identifiers are.
public final class HKAttachment: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: every stored property is an immutable Sendable value.
    public let identifier: UUID
    public let name: String
    public let contentType: UTType
    /// The size of the file, in bytes.
    public let size: Int
    public let creationDate: Date
    /// The metadata given when the attachment was added; nil when none was.
    public var metadata: [String: Any]? { metadataValues.isEmpty ? nil : metadataValues.mapValues(\.anyValue) }

    let metadataValues: [String: MetadataValue]
    /// The object the attachment belongs to: healthd is asked for its bytes through it, so they
    /// are readable exactly as long as the object is.
    let objectUUID: UUID
    let objectTypeIdentifier: String

    init(_ record: AttachmentRecord, objectTypeIdentifier: String) {
        identifier = record.identifier
        name = record.name
        // healthd stores only well-formed identifiers (AttachmentRules.checkContentType).
        contentType = UTType(record.contentType) ?? .data
        size = record.size
        creationDate = record.creationDate
        metadataValues = record.metadata
        objectUUID = record.objectUUID
        self.objectTypeIdentifier = objectTypeIdentifier
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKAttachment)?.identifier == identifier
    }

    public override var hash: Int { identifier.hashValue }

    public override var description: String {
        "<HKAttachment \(identifier) \(contentType.identifier) \(size) bytes>"
    }
}
