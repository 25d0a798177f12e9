public import Foundation
import HealthModel

/// `HKAttachment`'s archive (`NSSecureCoding`, as Apple's class:
/// developer.apple.com/documentation/healthkit/hkattachment lists NSSecureCoding among its
/// conformances and `init(coder:)`), so an app that keeps attachments in an archive (state
/// restoration, a cache) ports unchanged.
///
/// **Format.** Flat string and number fields (`NSCoder+ArchiveFields`): the identifier, name,
/// content type, size, creation date (seconds since the reference date), the metadata
/// (`MetadataArchiveFields`) and the object the attachment belongs to (its UUID and type).
///
/// **Decoding** fails (nil) on anything malformed or outside what healthd would have handed out
/// (`AttachmentRules`: name, content type and size), so a tampered archive cannot make an
/// attachment no store could hold. A decoded attachment is only a handle: its bytes are asked of
/// healthd through the object it names, under the app's read permissions for that object, as for
/// one just listed — an archive naming an object the app cannot see reads as "no such
/// attachment" (SECURITY.md, attachments), never as data.
extension HKAttachment {
    public static var supportsSecureCoding: Bool { true }

    private enum Key {
        static let identifier = "identifier"
        static let name = "name"
        static let contentType = "contentType"
        static let size = "size"
        static let creationDate = "creationDate"
        static let objectUUID = "objectUUID"
        static let objectType = "objectTypeIdentifier"
    }

    public func encode(with coder: NSCoder) {
        coder.encode(identifier.uuidString as NSString, forKey: Key.identifier)
        coder.encode(name as NSString, forKey: Key.name)
        coder.encode(contentType.identifier as NSString, forKey: Key.contentType)
        coder.encode(NSNumber(value: size), forKey: Key.size)
        coder.encode(NSNumber(value: creationDate.timeIntervalSinceReferenceDate), forKey: Key.creationDate)
        coder.encode(objectUUID.uuidString as NSString, forKey: Key.objectUUID)
        coder.encode(objectTypeIdentifier as NSString, forKey: Key.objectType)
        MetadataArchiveFields.encode(metadataValues, with: coder)
    }

    public convenience init?(coder: NSCoder) {
        guard let identifier = coder.decodeRequiredString(forKey: Key.identifier).flatMap(UUID.init(uuidString:)),
              let name = coder.decodeRequiredString(forKey: Key.name), (try? AttachmentRules.checkName(name)) != nil,
              let contentType = coder.decodeRequiredString(forKey: Key.contentType),
              (try? AttachmentRules.checkContentType(contentType)) != nil,
              let size = coder.decodeRequiredInt(forKey: Key.size), (try? AttachmentRules.checkSize(size)) != nil,
              let seconds = coder.decodeRequiredFiniteDouble(forKey: Key.creationDate),
              let objectUUID = coder.decodeRequiredString(forKey: Key.objectUUID).flatMap(UUID.init(uuidString:)),
              let objectType = coder.decodeRequiredString(forKey: Key.objectType),
              AttachmentRules.attachableTypes.contains(objectType),
              case let .some(metadata) = MetadataArchiveFields.decode(from: coder) else { return nil }
        self.init(AttachmentRecord(identifier: identifier, objectUUID: objectUUID, name: name, contentType: contentType, size: size,
                                   creationDate: Date(timeIntervalSinceReferenceDate: seconds), metadata: metadata ?? [:]),
                  objectTypeIdentifier: objectType)
    }
}
