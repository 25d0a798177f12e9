import Foundation
import HealthModel
import Testing
import UniformTypeIdentifiers
@testable import HealthKit

/// Apple's `HKAttachment` conforms to `NSSecureCoding`
/// (developer.apple.com/documentation/healthkit/hkattachment: "Conforms To … NSSecureCoding",
/// with `init(coder:)`): an app keeps the attachments `attachments(for:)` handed it in an
/// archive and reads them back with `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`, and
/// the restored attachment reads its bytes as the listed one did (the end-to-end attachment
/// snippet). Issue 15, row 259.
@Suite(.timeLimit(.minutes(10))) struct AttachmentCodingTests {
    static func attachment(name: String = "scan.pdf", contentType: String = "com.adobe.pdf", size: Int = 1234,
                           metadata: [String: MetadataValue] = [:]) -> HKAttachment {
        HKAttachment(AttachmentRecord(identifier: UUID(), objectUUID: UUID(), name: name, contentType: contentType, size: size,
                                      creationDate: Date(timeIntervalSinceReferenceDate: 790_000_000.25), metadata: metadata),
                     objectTypeIdentifier: HKVisionPrescriptionTypeIdentifier)
    }

    /// Extremes of each field healthd can hand out: the smallest and largest size, a one-byte and
    /// a 254-byte name (multi-byte UTF-8), no metadata and metadata of every kind.
    static let extremes: [HKAttachment] = [
        attachment(),
        attachment(name: "x", contentType: "public.data", size: 0),
        attachment(name: String(repeating: "é", count: 127), contentType: "public.png", size: AttachmentLimits.maximumBytes),
        attachment(metadata: ["text": .string("a\u{0}b"), "n": .number(-1e308), "d": .date(Date(timeIntervalSince1970: 0)),
                              "q": .quantity(value: 1.5, unit: "mg"), "b": .bool(true)]),
    ]

    @Test(arguments: AttachmentCodingTests.extremes)
    func anAttachmentKeepsEveryPropertyThroughAnArchive(_ attachment: HKAttachment) throws {
        let restored = try SecureArchive.roundTrip(attachment)
        #expect(restored == attachment)
        #expect(restored.identifier == attachment.identifier && restored.name == attachment.name)
        #expect(restored.contentType == attachment.contentType && restored.size == attachment.size)
        #expect(restored.creationDate == attachment.creationDate)
        #expect(restored.metadataValues == attachment.metadataValues)
        #expect((restored.metadata == nil) == (attachment.metadata == nil))
        #expect(restored.objectUUID == attachment.objectUUID && restored.objectTypeIdentifier == attachment.objectTypeIdentifier)
    }

    /// Each field, one at a time: absent, of the wrong kind, or out of what healthd stores.
    @Test func aTamperedArchiveIsNoAttachment() throws {
        let attachment = Self.attachment()
        let bad: [(String, NSObject?)] = [
            ("identifier", nil), ("identifier", NSString(string: "not a uuid")), ("identifier", NSNumber(value: 1)),
            ("name", nil), ("name", NSString(string: "")), ("name", NSString(string: "a/b")), ("name", NSString(string: "a\u{0}b")),
            ("name", NSString(string: String(repeating: "n", count: AttachmentLimits.maximumNameBytes + 1))),
            ("contentType", nil), ("contentType", NSString(string: "not a type!")), ("contentType", NSString(string: "")),
            ("size", nil), ("size", NSNumber(value: -1)), ("size", NSNumber(value: 1e308)), ("size", NSNumber(value: 0.5)),
            ("size", NSNumber(value: AttachmentLimits.maximumBytes + 1)), ("size", NSString(string: "12")),
            ("creationDate", nil), ("creationDate", NSNumber(value: Double.nan)), ("creationDate", NSNumber(value: Double.infinity)),
            ("creationDate", NSNumber(value: -Double.infinity)),
            ("objectUUID", nil), ("objectUUID", NSString(string: "")),
            ("objectTypeIdentifier", nil), ("objectTypeIdentifier", NSString(string: "HKQuantityTypeIdentifierStepCount")),
            ("metadataCount", NSNumber(value: 3)), ("metadataCount", NSNumber(value: -1)), ("metadataCount", NSNumber(value: 1e18)),
        ]
        for (key, replacement) in bad {
            #expect(try SecureArchive.tampered(attachment, key, replacement) == nil, "\(key) = \(String(describing: replacement))")
        }
        // Untouched, it decodes.
        #expect(try SecureArchive.decoded(HKAttachment.self) { attachment.encode(with: $0) } == attachment)
    }

    /// NSCopying as before: immutable, so a copy is the attachment itself.
    @Test func aCopyIsTheAttachment() {
        let attachment = Self.attachment()
        #expect(attachment.copy() as? HKAttachment === attachment)
    }
}
