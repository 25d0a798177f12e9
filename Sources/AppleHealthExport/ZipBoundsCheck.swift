import Foundation

/// Every offset and size a zip's directory gives, checked against the file's length before
/// ZIPFoundation reads any of them.
///
/// ZIPFoundation 0.9.20 (the newest there is to pin) trusts them: it guards a 64-bit offset
/// with `offset <= .max` of UInt64, which always holds, then converts it with `off_t(offset)`
/// and `Int64(size)`, which trap past Int64.max. A 348-byte export.zip whose ZIP64 record gave
/// the central directory's offset as 0xFFFF_FFFF_FFFF_FFFF ended `healthctl import` with SIGILL
/// (crashhunt22, finding 2); so did an entry's ZIP64 local-header offset. This reader walks the
/// same structures the way ZIPFoundation finds them — the end record nearest the file's end,
/// the ZIP64 locator and record right before it, each central-directory record with its ZIP64
/// extra field, each local header and data descriptor — and refuses the file unless every
/// place and extent lies inside it. Then no value ZIPFoundation reads exceeds the file's
/// length (far below Int64.max), and none of its additions can overflow.
enum ZipBoundsCheck {
    /// Uncompressed sizes are not bounded by the file (deflate shrinks), only kept far from
    /// Int64's limit; the import bounds what it inflates by other means (`ExportSideFileReader`,
    /// `inflatesPastDeclaredSize`).
    static let maximumUncompressedBytes: UInt64 = 1 << 62

    static func check(_ url: URL) throws(ExportReadError) {
        let file: ZipBytes
        do {
            file = try ZipBytes(url)
        } catch {
            throw .io(path: url.path, reason: "cannot be read (\(error))")
        }
        defer { file.close() }
        do {
            try walk(file)
        } catch let damage as ZipDamage {
            throw .damagedZip(path: url.path, reason: damage.reason)
        } catch {
            throw .io(path: url.path, reason: "cannot be read (\(error))")
        }
    }

    struct ZipDamage: Error { let reason: String }

    static func walk(_ file: ZipBytes) throws {
        let length = file.length
        func within(_ offset: UInt64, _ size: UInt64, _ what: String) throws {
            guard offset <= length, size <= length - offset else {
                throw ZipDamage(reason: "\(what) (at \(offset), \(size) bytes) points past the end of the file (\(length) bytes)")
            }
        }
        // No end record: ZIPFoundation reads nothing either and refuses the file itself
        // ("not a readable zip archive"), so that wording stays.
        guard let end = try file.lastEndRecordOffset() else { return }
        let record = try file.bytes(at: end, count: 22)
        var entries = UInt64(record.u16(10))
        var directorySize = UInt64(record.u32(12))
        var directoryOffset = UInt64(record.u32(16))
        // ZIPFoundation takes the ZIP64 record when a locator and a record stand right before
        // the end record (it does not follow the locator's offset), and then uses its values.
        if end > 20, end - 20 > 56,
           try file.bytes(at: end - 20, count: 4).u32(0) == 0x0706_4B50,
           case let zip64 = try file.bytes(at: end - 20 - 56, count: 56), zip64.u32(0) == 0x0606_4B50 {
            entries = zip64.u64(32)
            directorySize = zip64.u64(40)
            directoryOffset = zip64.u64(48)
        }
        try within(directoryOffset, directorySize, "the central directory")

        var position = directoryOffset
        var index: UInt64 = 0
        while index < entries {
            index += 1
            let what = "entry \(index)"
            try within(position, 46, "\(what)'s directory record")
            let central = try file.bytes(at: position, count: 46)
            guard central.u32(0) == 0x0201_4B50 else {
                throw ZipDamage(reason: "\(what)'s directory record is missing (the directory lists \(entries) entries)")
            }
            let nameLength = UInt64(central.u16(28)), extraLength = UInt64(central.u16(30)), commentLength = UInt64(central.u16(32))
            try within(position, 46 + nameLength + extraLength + commentLength, "\(what)'s directory record")
            let extra = try file.bytes(at: position + 46 + nameLength, count: Int(extraLength))
            let sizes = EntrySizes(central: central, extra: extra)
            try within(sizes.localHeaderOffset, 30, "\(what)'s local header")
            let local = try file.bytes(at: sizes.localHeaderOffset, count: 30)
            guard local.u32(0) == 0x0403_4B50 else { throw ZipDamage(reason: "\(what)'s local header is missing") }
            let dataOffset = sizes.localHeaderOffset + 30 + UInt64(local.u16(26)) + UInt64(local.u16(28))
            // ZIPFoundation extracts by the local header's method; one read by the directory's
            // would check the other extent (stored: uncompressed size, deflated: compressed).
            guard local.u16(8) == central.u16(10) else {
                throw ZipDamage(reason: "\(what)'s local header and directory record name different compression methods")
            }
            let stored = central.u16(10) == 0
            let dataSize = stored ? sizes.uncompressed : sizes.compressed
            try within(dataOffset, dataSize, "\(what)'s data")
            guard sizes.uncompressed <= maximumUncompressedBytes else {
                throw ZipDamage(reason: "\(what)'s uncompressed size (\(sizes.uncompressed) bytes) is beyond any export")
            }
            // A data descriptor (flag bit 3) after the data: ZIPFoundation reads its sizes too.
            if central.u16(8) & 0x0008 != 0 {
                let descriptorSize: UInt64 = sizes.isZIP64 ? 24 : 16
                let descriptorOffset = dataOffset + dataSize
                if descriptorOffset <= length, descriptorSize <= length - descriptorOffset {
                    let descriptor = try file.bytes(at: descriptorOffset, count: Int(descriptorSize))
                    let start = descriptor.u32(0) == 0x0807_4B50 ? 8 : 4  // the signature is optional
                    let compressed = sizes.isZIP64 ? descriptor.u64(start) : UInt64(descriptor.u32(start))
                    let uncompressed = sizes.isZIP64 ? descriptor.u64(start + 8) : UInt64(descriptor.u32(start + 4))
                    try within(dataOffset, stored ? uncompressed : compressed, "\(what)'s data (by its data descriptor)")
                    guard uncompressed <= maximumUncompressedBytes else {
                        throw ZipDamage(reason: "\(what)'s uncompressed size (\(uncompressed) bytes, by its data descriptor) is beyond any export")
                    }
                }
            }
            position += 46 + nameLength + extraLength + commentLength
        }
    }

    /// An entry's sizes and local-header offset as ZIPFoundation takes them
    /// (`CentralDirectoryStructure.effective…`): a 32-bit field of all ones is replaced by the
    /// ZIP64 extra field's value (0x0001: uncompressed, compressed, offset, disk — only those
    /// whose 32-bit field is all ones, in that order), when that field parses and is not zero.
    struct EntrySizes {
        var uncompressed: UInt64
        var compressed: UInt64
        var localHeaderOffset: UInt64
        var isZIP64: Bool

        init(central: [UInt8], extra: [UInt8]) {
            let compressed32 = central.u32(20), uncompressed32 = central.u32(24), offset32 = central.u32(42)
            uncompressed = UInt64(uncompressed32)
            compressed = UInt64(compressed32)
            localHeaderOffset = UInt64(offset32)
            var fieldBytes = 0
            if uncompressed32 == .max { fieldBytes += 8 }
            if compressed32 == .max { fieldBytes += 8 }
            if offset32 == .max { fieldBytes += 8 }
            if central.u16(34) == .max { fieldBytes += 4 }
            let zip64 = Self.zip64Field(in: extra, expectedBytes: fieldBytes)
            isZIP64 = central.u16(6) & 0xFF >= 45 || zip64 != nil
            guard isZIP64, let zip64 else { return }
            var cursor = 4
            func next() -> UInt64 {
                defer { cursor += 8 }
                return zip64.u64(cursor)
            }
            if uncompressed32 == .max, case let value = next(), value > 0 { uncompressed = value }
            if compressed32 == .max, case let value = next(), value > 0 { compressed = value }
            if offset32 == .max, case let value = next(), value > 0 { localHeaderOffset = value }
        }

        /// The first ZIP64 block of `extra`, header included, when its length is what the
        /// all-ones fields call for (ZIPFoundation ignores it otherwise). An empty block counts:
        /// ZIPFoundation then takes the entry as ZIP64 and reads a 24-byte data descriptor.
        static func zip64Field(in extra: [UInt8], expectedBytes: Int) -> [UInt8]? {
            var offset = 0
            while offset < extra.count - 4 {
                let size = Int(extra.u16(offset + 2))
                let next = offset + 4 + size
                guard next <= extra.count else { return nil }
                if extra.u16(offset) == 0x0001 {
                    guard size == expectedBytes else { return nil }
                    return Array(extra[offset..<next])
                }
                offset = next
            }
            return nil
        }
    }
}

/// A zip file read at explicit offsets, never past its length.
final class ZipBytes {
    let handle: FileHandle
    let length: UInt64

    init(_ url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
        length = try handle.seekToEnd()
    }

    func close() { try? handle.close() }

    /// `count` bytes at `offset`; the caller has checked that they lie inside the file.
    func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        try handle.seek(toOffset: offset)
        let data = try handle.read(upToCount: count) ?? Data()
        guard data.count == count else {
            throw ZipBoundsCheck.ZipDamage(reason: "the file ended inside a record at \(offset)")
        }
        return [UInt8](data)
    }

    /// The end-of-central-directory record ZIPFoundation takes: the signature nearest the end
    /// with 22 bytes after it (it scans the whole file backwards, so this does too).
    func lastEndRecordOffset() throws -> UInt64? {
        guard length >= 22 else { return nil }
        let chunk: UInt64 = 1 << 16
        var high = length - 22 + 4  // the signature's bytes end here at the latest
        while high >= 4 {
            let low = high > chunk ? high - chunk : 0
            let window = try bytes(at: low, count: Int(high - low))
            var index = window.count - 4
            while index >= 0 {
                if window[index] == 0x50, window[index + 1] == 0x4B, window[index + 2] == 0x05, window[index + 3] == 0x06 {
                    return low + UInt64(index)
                }
                index -= 1
            }
            if low == 0 { break }
            high = low + 3  // overlap by three bytes: a signature across the chunk boundary
        }
        return nil
    }
}

extension [UInt8] {
    /// Little-endian integers at `offset` (callers read only inside what they fetched).
    func u16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }
    func u64(_ offset: Int) -> UInt64 { UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32 }
}
