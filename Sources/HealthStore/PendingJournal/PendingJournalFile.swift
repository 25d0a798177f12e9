import Glibc

/// The layout of a pending journal on disk: `pending-<generation>.journal` in the store
/// directory, one file per lock (each lock has its own key pair, `PendingJournalKeys`).
///
/// Header: magic `OHKPJ001` (8 bytes) ‖ generation (8, big-endian). Then entries, each
/// length (4, big-endian) ‖ sealed entry (`PendingJournalSeal`). Entry n (from 1) is sealed with
/// associated data magic ‖ generation ‖ n (8, big-endian): its place in this file.
///
/// A trailing entry cut short is one whose append was interrupted (healthd killed mid-write):
/// its save was never acknowledged, so reading stops there without an error.
enum PendingJournalFile {
    static let magic = Array("OHKPJ001".utf8)
    static let headerBytes = 16
    /// Far above any save (the frame limit bounds a request long before), far below what a
    /// damaged length field could ask the merge to allocate.
    static let maxEntryBytes = 64 << 20

    static func path(directory: String, generation: Int64) -> String {
        directory + "/pending-\(generation).journal"
    }

    static func header(generation: Int64) -> [UInt8] {
        magic + bigEndian(UInt64(bitPattern: generation))
    }

    static func associatedData(generation: Int64, sequence: UInt64) -> [UInt8] {
        header(generation: generation) + bigEndian(sequence)
    }

    /// The sealed entries of the file at `path`, in order, with their sequence numbers; nil when
    /// there is no such file. Throws when the header is not this generation's.
    static func entries(path: String, generation: Int64) throws(PendingJournalError) -> [(sequence: UInt64, sealed: ArraySlice<UInt8>)]? {
        guard let bytes = try readAll(path) else { return nil }
        guard bytes.count >= headerBytes, Array(bytes[0 ..< headerBytes]) == header(generation: generation) else {
            throw .fileUnusable(path: path, reason: "its header is not that of pending journal generation \(generation)")
        }
        var entries: [(UInt64, ArraySlice<UInt8>)] = []
        var offset = headerBytes
        var sequence: UInt64 = 1
        while bytes.count - offset >= 4 {
            let length = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= maxEntryBytes, bytes.count - offset - 4 >= length else { break }  // torn tail
            entries.append((sequence, bytes[offset + 4 ..< offset + 4 + length]))
            offset += 4 + length
            sequence += 1
        }
        return entries
    }

    private static func readAll(_ path: String) throws(PendingJournalError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .fileUnusable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .fileUnusable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { return bytes }
            bytes += chunk[0 ..< count]
        }
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0 ..< 8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) }
    }
}
