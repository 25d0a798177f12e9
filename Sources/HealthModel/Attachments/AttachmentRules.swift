/// Which objects take attachments, and the checks on what describes one.
///
/// Apple documents attachments with vision prescriptions only: HKVisionPrescription's overview
/// ("you attach the prescription as an image or PDF to a simple sample",
/// developer.apple.com/documentation/healthkit/hkvisionprescription) is the one place the
/// attachment store is used, and HKAttachmentStore manages "attachments for samples that your app
/// has saved" (developer.apple.com/documentation/healthkit/hkattachmentstore). healthd accepts
/// them on vision prescriptions (glasses and contacts alike) and refuses every other type with
/// `errorInvalidArgument`, before any lookup: the refusal depends only on the type the app named.
///
/// Messages name what is wrong and the bound, never the value (a name may be health data).
public enum AttachmentRules {
    public static let attachableTypes: Set<String> = [HKVisionPrescriptionTypeIdentifier]

    public static func checkAttachable(_ typeIdentifier: String) throws(HKError) {
        guard attachableTypes.contains(typeIdentifier) else {
            throw HKError(.errorInvalidArgument,
                          "attachments can be added to vision prescriptions only, not to \(typeIdentifier.prefix(100)) objects")
        }
    }

    /// The description of a new attachment: its name, content type, size and metadata.
    public static func check(name: String, contentType: String, size: Int, metadata: [String: MetadataValue]) throws(HKError) {
        try checkName(name)
        try checkContentType(contentType)
        try checkSize(size)
        guard let type = HKObjectType.type(forIdentifier: HKVisionPrescriptionTypeIdentifier) as? HKSampleType else {
            throw HKError(.unknownError, "the vision prescription type is missing from the type registry")
        }
        try MetadataValidator.check(metadata, of: type, sampleType: nil)
        let bytes = MetadataSize.upperBound(of: metadata)
        guard bytes <= AttachmentLimits.maximumMetadataBytes else {
            throw HKError(.errorInvalidArgument,
                          "an attachment's metadata takes \(bytes) bytes; it may take at most \(AttachmentLimits.maximumMetadataBytes) "
                          + "(about 44 entries of 4 KiB) so that an object's attachments always list in one reply: shorten or drop entries")
        }
    }

    /// A file name: 1…255 UTF-8 bytes, no NUL, no "/" (it names a file, never a path).
    public static func checkName(_ name: String) throws(HKError) {
        let bytes = name.utf8.count
        guard bytes >= 1, bytes <= AttachmentLimits.maximumNameBytes else {
            throw HKError(.errorInvalidArgument, "an attachment's name must have 1 to \(AttachmentLimits.maximumNameBytes) UTF-8 bytes, not \(bytes)")
        }
        if name.utf8.contains(0) {
            throw HKError(.errorInvalidArgument, "an attachment's name must not contain a NUL character")
        }
        if name.utf8.contains(UInt8(ascii: "/")) {
            throw HKError(.errorInvalidArgument, "an attachment's name is a file name and must not contain \"/\"")
        }
    }

    /// A uniform type identifier (UTType.identifier): 1…255 bytes of letters, digits, ".", "-"
    /// and "_" (reverse-DNS, as "public.jpeg", "com.adobe.pdf" or "dyn.a0…").
    public static func checkContentType(_ identifier: String) throws(HKError) {
        let bytes = Array(identifier.utf8)
        guard bytes.count >= 1, bytes.count <= AttachmentLimits.maximumContentTypeBytes,
              bytes.allSatisfy({ isIdentifierByte($0) }) else {
            throw HKError(.errorInvalidArgument,
                          "an attachment's content type must be a uniform type identifier of 1 to \(AttachmentLimits.maximumContentTypeBytes) letters, digits, \".\", \"-\" or \"_\"")
        }
    }

    public static func checkSize(_ size: Int) throws(HKError) {
        guard size >= 0 else { throw HKError(.errorInvalidArgument, "an attachment's size cannot be negative") }
        guard size <= AttachmentLimits.maximumBytes else {
            throw HKError(.errorInvalidArgument,
                          "the attachment has \(size) bytes; an attachment may have at most \(AttachmentLimits.maximumBytes) bytes (16 MiB)")
        }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
