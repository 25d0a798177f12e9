import Glibc
import Synchronization

/// The pending journal of one lock, as the locked broker holds it: the file, open for appending,
/// and the journal's public key — never its private key, which stays in the (closed, encrypted)
/// store. The broker can add entries it cannot read back.
///
/// `append` returns only once the entry is on disk (written and fdatasync'ed), so a save
/// acknowledged while locked survives a crash. A failed append truncates the file back to where
/// it was, so a later append never follows half an entry.
public final class PendingJournal: Sendable {
    public let generation: Int64
    public let path: String
    private let publicKey: [UInt8]
    private let format: PendingJournalFile.Format
    private struct Tail {
        var fd: Int32
        var size: Int
        var nextSequence: UInt64
    }
    private let tail: Mutex<Tail>

    /// The journal file of `generation`, open for appending: created (durably, framed) when it
    /// does not exist yet, else continued after its end. A file exists already when healthd was
    /// killed while locked and started locked again (`LockedStart`): its entries are kept, the
    /// numbering goes on, and a torn last record (never acknowledged) is cut off first. Only
    /// record headers are read (`PendingJournalReader`), so this costs one small read per entry
    /// and bounded memory however large the file is. Bytes that are not a torn tail are never
    /// cut: in a framed file new entries follow them (readers resume after damage); in a file of
    /// the older length-prefixed framing, which cannot resume, they are first copied to
    /// `<journal>.tail-<offset>` beside it and kept.
    public static func openForAppending(directory: String, generation: Int64, publicKey: [UInt8]) throws(PendingJournalError) -> PendingJournal {
        let path = PendingJournalFile.path(directory: directory, generation: generation)
        guard let reader = try PendingJournalReader(path: path, generation: generation) else {
            return try PendingJournal(directory: directory, generation: generation, publicKey: publicKey)
        }
        var unreadableFrom: Int?
        while let item = try reader.next(bodies: false) {
            if case let .unreadable(offset, _) = item { unreadableFrom = unreadableFrom ?? offset }
        }
        var end = reader.tornTailStart ?? reader.size
        if reader.format == .lengthPrefixed, let unreadableFrom {
            try keepUnreadableTail(path: path, from: unreadableFrom, to: reader.size)
            end = unreadableFrom
        }
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .appendFailed(path: path, reason: "opening it: \(String(cString: strerror(errno)))") }
        if end < reader.size {
            guard ftruncate(fd, off_t(end)) == 0, fsync(fd) == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                throw .appendFailed(path: path, reason: "cutting off a torn last entry: \(reason)")
            }
        }
        return PendingJournal(path: path, generation: generation, publicKey: publicKey, format: reader.format,
                              tail: Tail(fd: fd, size: end, nextSequence: reader.lastSequence + 1))
    }

    /// Copies bytes `from ..< to` of a length-prefixed journal to a file of their own (durably)
    /// before they are cut off, a bounded window at a time.
    private static func keepUnreadableTail(path: String, from start: Int, to end: Int) throws(PendingJournalError) {
        let keptPath = path + ".tail-\(start)"
        let source = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard source >= 0 else { throw .appendFailed(path: path, reason: "reading its unreadable tail: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(source) }
        let target = open(keptPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard target >= 0 else { throw .appendFailed(path: keptPath, reason: "creating it: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(target) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var position = start
        while position < end {
            let got = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, min($0.count, end - position), off_t(position)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw .appendFailed(path: path, reason: "reading its unreadable tail: \(String(cString: strerror(errno)))") }
            try write(target, Array(buffer[0 ..< got]), at: position - start, path: keptPath)
            position += got
        }
        guard fsync(target) == 0 else { throw .appendFailed(path: keptPath, reason: "fsync: \(String(cString: strerror(errno)))") }
        do {
            try StoreFileIO.syncDirectory(containing: keptPath)
        } catch {
            throw .appendFailed(path: keptPath, reason: error.reason)
        }
    }

    private init(path: String, generation: Int64, publicKey: [UInt8], format: PendingJournalFile.Format, tail: Tail) {
        self.generation = generation
        self.path = path
        self.publicKey = publicKey
        self.format = format
        self.tail = Mutex(tail)
    }

    /// Creates the journal file of `generation` (it must not exist yet) and makes it durable.
    private convenience init(directory: String, generation: Int64, publicKey: [UInt8]) throws(PendingJournalError) {
        let path = PendingJournalFile.path(directory: directory, generation: generation)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .appendFailed(path: path, reason: "creating it: \(String(cString: strerror(errno)))") }
        let header = PendingJournalFile.header(generation: generation)
        do throws(PendingJournalError) {
            try Self.write(fd, header, at: 0, path: path)
            guard fsync(fd) == 0 else { throw .appendFailed(path: path, reason: "fsync: \(String(cString: strerror(errno)))") }
            do {
                try StoreFileIO.syncDirectory(containing: path)
            } catch {
                throw .appendFailed(path: path, reason: error.reason)
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.init(path: path, generation: generation, publicKey: publicKey, format: .framed,
                  tail: Tail(fd: fd, size: header.count, nextSequence: 1))
    }

    /// Seals `plaintext` as the next entry and appends it durably; returns its sequence number.
    @discardableResult
    public func append(_ plaintext: [UInt8]) throws(PendingJournalError) -> UInt64 {
        let sealedOverhead = PendingJournalSeal.overhead
        guard plaintext.count + sealedOverhead <= PendingJournalFile.maxEntryBytes else {
            throw .entryTooLarge(bytes: plaintext.count)
        }
        return try tail.withLock { (tail: inout Tail) throws(PendingJournalError) -> UInt64 in
            guard tail.fd >= 0 else { throw .appendFailed(path: path, reason: "the journal is closed (the store was unlocked)") }
            let sequence = tail.nextSequence
            let aad = PendingJournalFile.associatedData(generation: generation, sequence: sequence)
            let sealed = try PendingJournalSeal.seal(plaintext, to: publicKey, aad: aad)
            let record = PendingJournalFile.recordHeader(format: format, generation: generation, sequence: sequence,
                                                         length: sealed.count) + sealed
            do throws(PendingJournalError) {
                try Self.write(tail.fd, record, at: tail.size, path: path)
                guard fdatasync(tail.fd) == 0 else {
                    throw .appendFailed(path: path, reason: "fdatasync: \(String(cString: strerror(errno)))")
                }
            } catch {
                _ = ftruncate(tail.fd, off_t(tail.size))
                throw error
            }
            tail.size += record.count
            tail.nextSequence += 1
            return sequence
        }
    }

    /// How many entries were appended.
    public var count: UInt64 { tail.withLock { $0.nextSequence - 1 } }

    /// Stops appending (the store is being unlocked and will merge the file).
    public func close() {
        tail.withLock { tail in
            if tail.fd >= 0 { Glibc.close(tail.fd) }
            tail.fd = -1
        }
    }

    deinit { close() }

    private static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws(PendingJournalError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                // Non-empty here (done < count), so the base address exists.
                guard let base = buffer.baseAddress else { return 0 }
                return pwrite(fd, base + done, buffer.count - done, off_t(offset + done))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw .appendFailed(path: path, reason: "write: \(String(cString: strerror(errno)))")
            }
            done += written
        }
    }
}
