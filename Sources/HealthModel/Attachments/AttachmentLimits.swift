/// The bounds healthd keeps on attachments (SECURITY.md "Attachments"). Apple documents no
/// limits; these are ours, chosen so that one app can neither fill the user's disk through
/// healthd nor hold its memory, while a real prescription scan still fits.
public enum AttachmentLimits {
    /// One attachment's bytes: 16 MiB. A phone photo of a prescription is 2–8 MB, a scanned
    /// multi-page PDF rarely above 10 MB.
    public static let maximumBytes = 16 * 1024 * 1024
    /// Attachments on one object: 16 (front and back of several pages is a handful).
    public static let maximumPerObject = 16
    /// Every attachment one app added, with its unfinished upload: 256 MiB, so a misbehaving app
    /// grows the store by at most that much.
    public static let maximumBytesPerApp = 256 * 1024 * 1024
    /// One chunk on the wire and one row in the store: 256 KiB, far below the 4 MiB frame limit,
    /// so neither side ever buffers more than one chunk per call.
    public static let chunkBytes = 256 * 1024
    /// A name is a file name: 1 to 255 UTF-8 bytes (the usual file-system limit).
    public static let maximumNameBytes = 255
    /// A content type is a uniform type identifier: 1 to 255 bytes.
    public static let maximumContentTypeBytes = 255
    /// One attachment's metadata, as `MetadataSize.upperBound` counts it: 192 KiB (44 entries of
    /// 4 KiB). An object's attachments are listed in one reply (`ListAttachments`), so the most
    /// one object may have must fit a frame whoever added them: 16 attachments of the 64 × 4 KiB
    /// samples may carry came to ~4.6 MB, past the 4 MiB frame limit, and every reader of the
    /// object — its owner, an app it was granted to, the user — could no longer list them.
    /// 16 × (192 KiB + name, content type and fields) is ~3.2 MB.
    public static let maximumMetadataBytes = 192 * 1024
}
