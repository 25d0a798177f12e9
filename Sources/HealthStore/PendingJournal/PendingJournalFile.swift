/// The layout of a pending journal on disk: `pending-<generation>.journal` in the store
/// directory, one file per lock (each lock has its own key pair, `PendingJournalKeys`).
///
/// Header: magic (8 bytes) ‖ generation (8, big-endian). The magic names the record framing:
///
/// - `OHKPJ002` (written since session 18): each record is
///   marker (8: `\x89OHKPJ\r\n`) ‖ sequence (8, big-endian) ‖ length (4, big-endian) ‖
///   check (4: FNV-1a-32 of generation ‖ sequence ‖ length) ‖ sealed entry (`length` bytes).
///   The marker and check let a reader find the next record after damaged bytes
///   (`PendingJournalReader`): a flipped length no longer hides the entries after it. Sealed
///   entries are AES-GCM output under a key healthd picks, so an app cannot plant a marker.
/// - `OHKPJ001` (earlier versions, still read and continued): length (4, big-endian) ‖ sealed
///   entry; entry n is the n-th record. No resynchronisation is possible after a bad length.
///
/// Entry n is sealed with associated data `OHKPJ001` ‖ generation ‖ n (8, big-endian) in both
/// framings — its place in this journal; the constant is a domain label, not the file's magic.
///
/// A trailing record cut short is one whose append was interrupted (healthd killed mid-write):
/// its save was never acknowledged, so readers stop there without an error.
enum PendingJournalFile {
    enum Format: Sendable { case lengthPrefixed, framed }

    static let magicLengthPrefixed = Array("OHKPJ001".utf8)
    static let magicFramed = Array("OHKPJ002".utf8)
    static let headerBytes = 16
    static let recordMarker: [UInt8] = [0x89, 0x4F, 0x48, 0x4B, 0x50, 0x4A, 0x0D, 0x0A]
    /// Marker, sequence, length and check of a framed record.
    static let framedRecordHeaderBytes = 24
    /// Far above any save (the frame limit bounds a request long before), far below what a
    /// damaged length field could ask a reader to allocate: the most a reader holds at once.
    static let maxEntryBytes = 64 << 20

    static func path(directory: String, generation: Int64) -> String {
        directory + "/pending-\(generation).journal"
    }

    static func header(generation: Int64, format: Format = .framed) -> [UInt8] {
        (format == .framed ? magicFramed : magicLengthPrefixed) + bigEndian(UInt64(bitPattern: generation))
    }

    /// The format a file header names, or nil when it is not this generation's header.
    static func format(ofHeader bytes: [UInt8], generation: Int64) -> Format? {
        guard bytes.count == headerBytes else { return nil }
        if bytes == header(generation: generation, format: .framed) { return .framed }
        if bytes == header(generation: generation, format: .lengthPrefixed) { return .lengthPrefixed }
        return nil
    }

    static func associatedData(generation: Int64, sequence: UInt64) -> [UInt8] {
        magicLengthPrefixed + bigEndian(UInt64(bitPattern: generation)) + bigEndian(sequence)
    }

    /// What precedes a sealed entry of `length` bytes in `format`.
    static func recordHeader(format: Format, generation: Int64, sequence: UInt64, length: Int) -> [UInt8] {
        let length32 = UInt32(truncatingIfNeeded: length)
        switch format {
        case .lengthPrefixed:
            return bigEndian(length32)
        case .framed:
            return recordMarker + bigEndian(sequence) + bigEndian(length32)
                + bigEndian(check(generation: generation, sequence: sequence, length: length32))
        }
    }

    /// The sequence and length a framed record header holds, or nil when its marker or check
    /// is wrong (damage, or not a record boundary).
    static func parseFramedHeader(_ bytes: ArraySlice<UInt8>, generation: Int64) -> (sequence: UInt64, length: Int)? {
        guard bytes.count == framedRecordHeaderBytes,
              bytes.prefix(recordMarker.count).elementsEqual(recordMarker) else { return nil }
        let start = bytes.startIndex
        let sequence = integer(bytes[start + 8 ..< start + 16])
        let length = UInt32(truncatingIfNeeded: integer(bytes[start + 16 ..< start + 20]))
        let check = UInt32(truncatingIfNeeded: integer(bytes[start + 20 ..< start + 24]))
        guard check == Self.check(generation: generation, sequence: sequence, length: length) else { return nil }
        return (sequence, Int(length))
    }

    /// FNV-1a (32 bits) of generation ‖ sequence ‖ length: catches a flipped bit in the fields a
    /// reader trusts before authentication (the entry's seal covers the rest).
    static func check(generation: Int64, sequence: UInt64, length: UInt32) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bigEndian(UInt64(bitPattern: generation)) + bigEndian(sequence) + bigEndian(length) {
            hash = (hash ^ UInt32(byte)) &* 0x0100_0193
        }
        return hash
    }

    static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0 ..< 8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) }
    }
}
