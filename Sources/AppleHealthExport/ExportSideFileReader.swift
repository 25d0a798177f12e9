import Foundation
import Glibc
import ZIPFoundation

/// The one way a file beside export.xml (a route's GPX, an ECG's CSV, a clinical record's FHIR
/// JSON, a CDA document) is read, from an archive or from an unpacked folder. An export is
/// untrusted input, so each read is bounded by what it may hold, counted while reading:
/// - from a zip, only a plain file entry; its bytes counted as they are inflated (ZIPFoundation
///   inflates until the compressed data ends, whatever size the header declares, so a header
///   claiming 1 KiB over gigabytes of deflate would otherwise pass), and its CRC-32 compared, so
///   a damaged stored entry is refused instead of imported with wrong values;
/// - from a folder (an unzipped export, whose links `unzip` restores), only a regular file, not
///   followed through a final symbolic link: a link to /dev/zero made healthctl read forever, a
///   FIFO blocked it.
enum ExportSideFileReader {
    /// The bytes of `entry`, refused with `tooLarge` past `limit`.
    static func bytes(of entry: Entry, in archive: Archive, limit: Int, tooLarge: ExportReadError) throws(ExportReadError) -> Data {
        guard entry.type == .file else {
            throw .io(path: entry.path, reason: "is not a plain file in the archive (a link or a folder)")
        }
        guard entry.uncompressedSize <= UInt64(limit) else { throw tooLarge }
        var data = Data()
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry, consumer: { chunk in
                guard data.count + chunk.count <= limit else { throw tooLarge }
                data.append(chunk)
            })
        } catch let error as ExportReadError {
            throw error
        } catch {
            throw .io(path: entry.path, reason: "cannot read it from the archive (\(error))")
        }
        guard checksum == entry.checksum else {
            throw .io(path: entry.path, reason: "damaged in the archive: its CRC-32 does not match (the export was cut or altered)")
        }
        return data
    }

    /// The bytes of the regular file at `url`, refused with `tooLarge` past `limit`.
    static func bytes(ofFileAt url: URL, limit: Int, tooLarge: ExportReadError) throws(ExportReadError) -> Data {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "is a symbolic link; an export's files are plain files" : String(cString: strerror(errno))
            throw .io(path: url.path, reason: reason)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io(path: url.path, reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .io(path: url.path, reason: "is not a regular file (a device, a pipe or a folder); an export's files are plain files")
        }
        guard status.st_size <= off_t(limit) else { throw tooLarge }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .io(path: url.path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return data }
            // Counted, not taken from fstat: the file may grow while it is read.
            guard data.count + count <= limit else { throw tooLarge }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}
