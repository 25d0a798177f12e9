import Glibc

/// Reads a pending journal record by record through one descriptor, so memory stays bounded
/// whatever the file's size: at most one entry (`PendingJournalFile.maxEntryBytes`) plus a
/// 64 KiB window while it looks for the next record after damaged bytes. The merge reads entries
/// this way; a locked start (`PendingJournal.openForAppending`) reads record headers only.
///
/// Damage is never silent: bytes that are not a whole record are reported as `.unreadable`
/// (framed files resume at the next record boundary: marker and check, `PendingJournalFile`);
/// a record whose intact header names more than the bound is skipped unread as `.oversized`.
/// Only a tail that looks like an append cut short — a partial record header, or an intact one
/// whose body runs past the end, with no record after it — is taken for a torn write and
/// ignored (`tornTailStart`): that save was never acknowledged.
public final class PendingJournalReader {
    public enum Item: Equatable, Sendable {
        /// A whole record. `sealed` is empty when headers only were asked for.
        case entry(sequence: UInt64, sealed: [UInt8])
        /// `bytes` bytes from `offset` that are not a whole record, and not a torn tail.
        case unreadable(offset: Int, bytes: Int)
        /// A record whose header names `bytes` bytes, more than an entry may hold: skipped unread.
        case oversized(sequence: UInt64, bytes: Int)
    }

    public let path: String
    public let generation: Int64
    let format: PendingJournalFile.Format
    /// The file's size when it was opened (a journal is not appended to while it is read).
    let size: Int
    /// Where a torn last record starts, once reading reached it.
    private(set) var tornTailStart: Int?
    /// The highest sequence number of a whole record so far.
    private(set) var lastSequence: UInt64 = 0
    /// The largest buffer this reader held at once (what bounds its memory; tests check it).
    private(set) var largestBuffer = 0
    private var offset = PendingJournalFile.headerBytes
    private let fd: Int32
    private static let searchWindow = 64 << 10

    /// nil when there is no file at `path`. Throws when its header is not that of `generation`.
    public init?(path: String, generation: Int64) throws(PendingJournalError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .fileUnusable(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .fileUnusable(path: path, reason: reason)
        }
        self.fd = fd
        self.path = path
        self.generation = generation
        self.size = Int(status.st_size)
        let header: [UInt8]
        do {
            header = try Self.read(fd, count: min(size, PendingJournalFile.headerBytes), at: 0, path: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        guard let format = PendingJournalFile.format(ofHeader: header, generation: generation) else {
            Glibc.close(fd)
            throw .fileUnusable(path: path, reason: "its header is not that of pending journal generation \(generation)")
        }
        self.format = format
    }

    deinit { Glibc.close(fd) }

    /// The next record, or nil at the end (or at a torn tail). With `bodies` false, entries come
    /// without their sealed bytes and no body is read.
    public func next(bodies: Bool = true) throws(PendingJournalError) -> Item? {
        switch format {
        case .framed: try nextFramed(bodies: bodies)
        case .lengthPrefixed: try nextLengthPrefixed(bodies: bodies)
        }
    }

    private func nextFramed(bodies: Bool) throws(PendingJournalError) -> Item? {
        let headerBytes = PendingJournalFile.framedRecordHeaderBytes
        guard offset < size else { return nil }
        let start = offset
        if size - start >= headerBytes,
           let (sequence, length) = PendingJournalFile.parseFramedHeader(
               try read(count: headerBytes, at: start)[...], generation: generation),
           size - start - headerBytes >= length {
            offset = start + headerBytes + length
            guard length <= PendingJournalFile.maxEntryBytes else { return .oversized(sequence: sequence, bytes: length) }
            guard sequence > lastSequence else {
                // Sequences only grow: a second copy of a record (or an older one) is not an entry.
                return .unreadable(offset: start, bytes: headerBytes + length)
            }
            lastSequence = sequence
            let sealed = bodies ? try read(count: length, at: start + headerBytes) : []
            return .entry(sequence: sequence, sealed: sealed)
        }
        // No whole record starts here: damage, or an append cut short.
        if let resume = try nextRecordBoundary(after: start) {
            offset = resume
            return .unreadable(offset: start, bytes: resume - start)
        }
        offset = size
        if try looksTorn(at: start) {
            tornTailStart = start
            return nil
        }
        return .unreadable(offset: start, bytes: size - start)
    }

    /// A partial record header (a prefix of the marker, or more), or an intact header whose
    /// body runs past the end: what an interrupted append leaves.
    private func looksTorn(at start: Int) throws(PendingJournalError) -> Bool {
        let headerBytes = PendingJournalFile.framedRecordHeaderBytes
        let present = try read(count: min(size - start, headerBytes), at: start)
        if present.count < headerBytes {
            return present.prefix(PendingJournalFile.recordMarker.count)
                .elementsEqual(PendingJournalFile.recordMarker.prefix(min(present.count, 8)))
        }
        return PendingJournalFile.parseFramedHeader(present[...], generation: generation) != nil
    }

    /// The offset of the first record header after `start` whose marker and check hold,
    /// searching forwards a window at a time.
    private func nextRecordBoundary(after start: Int) throws(PendingJournalError) -> Int? {
        let marker = PendingJournalFile.recordMarker
        let headerBytes = PendingJournalFile.framedRecordHeaderBytes
        var position = start + 1
        while size - position >= headerBytes {
            let window = try read(count: min(Self.searchWindow, size - position), at: position)
            var index = 0
            while index + marker.count <= window.count {
                if window[index] == marker[0], window[index ..< index + marker.count].elementsEqual(marker) {
                    let candidate = position + index
                    guard size - candidate >= headerBytes else { return nil }
                    let header = try read(count: headerBytes, at: candidate)
                    if PendingJournalFile.parseFramedHeader(header[...], generation: generation) != nil { return candidate }
                }
                index += 1
            }
            // The next window overlaps this one by less than a marker, so none is missed.
            position += max(1, window.count - (marker.count - 1))
        }
        return nil
    }

    /// Files written before the framed format: nothing to resynchronise on. A length over the
    /// bound is damage (the rest of the file is unreadable); a length running past the end is
    /// taken for a torn tail, as it always was (this framing cannot tell the two apart).
    private func nextLengthPrefixed(bodies: Bool) throws(PendingJournalError) -> Item? {
        guard offset < size else { return nil }
        let start = offset
        guard size - start >= 4 else {
            offset = size
            tornTailStart = start
            return nil
        }
        let length = Int(PendingJournalFile.integer(try read(count: 4, at: start)[...]))
        guard length <= PendingJournalFile.maxEntryBytes else {
            offset = size
            return .unreadable(offset: start, bytes: size - start)
        }
        guard size - start - 4 >= length else {
            offset = size
            tornTailStart = start
            return nil
        }
        offset = start + 4 + length
        lastSequence += 1
        let sealed = bodies ? try read(count: length, at: start + 4) : []
        return .entry(sequence: lastSequence, sealed: sealed)
    }

    private func read(count: Int, at position: Int) throws(PendingJournalError) -> [UInt8] {
        largestBuffer = max(largestBuffer, count)
        return try Self.read(fd, count: count, at: position, path: path)
    }

    private static func read(_ fd: Int32, count: Int, at position: Int, path: String) throws(PendingJournalError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                // Non-empty here (done < count), so the base address exists.
                guard let base = buffer.baseAddress else { return 0 }
                return pread(fd, base + done, count - done, off_t(position + done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else {
                throw .fileUnusable(path: path, reason: got == 0 ? "it became shorter while read" : String(cString: strerror(errno)))
            }
            done += got
        }
        return bytes
    }
}
