@testable import AppleHealthExport
import Foundation
import Glibc
import Testing
import TestSupport
import ZIPFoundation

/// An export is untrusted input (session 18 storage review, finding 4): the files beside
/// export.xml are read through one bounded reader (`ExportSideFileReader`). Each case here was
/// accepted or hung before it: a link to /dev/zero was read forever, a FIFO blocked the import, a
/// zip header's size was trusted while ZIPFoundation inflated whatever followed, and a damaged
/// stored entry imported wrong values because its CRC-32 was never compared.
@Suite(.timeLimit(.minutes(10))) struct HostileExportFileTests {
    static let exportXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US"><ExportDate value="2024-05-01 10:00:00 +0000"/></HealthData>

        """

    static func ecg(voltages: Int) -> String {
        "Recorded Date,2023-11-14 20:10:00 -0800\nSample Rate,512 hertz\n\n"
            + String(repeating: "40.25\n", count: voltages)
    }

    /// An unpacked export folder with export.xml, and the folders its side files live in.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-export-\(UUID().uuidString)")
        for sub in ["electrocardiograms", "workout-routes"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try Data(Self.exportXML.utf8).write(to: folder.appendingPathComponent("export.xml"))
        return folder
    }

    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func aLinkToADeviceIsRefusedNotReadForever() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("electrocardiograms/a.csv").path,
                                                   withDestinationPath: "/dev/zero")
        let file = try AppleHealthExportFile(url: folder)
        let said = message { _ = try file.electrocardiogram(at: "electrocardiograms/a.csv") }
        #expect(said.contains("symbolic link"), "\(said)")
    }

    @Test func aPipeIsRefusedNotWaitedOn() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("workout-routes/r.gpx").path, 0o600) == 0)
        let file = try AppleHealthExportFile(url: folder)
        let said = message { _ = try file.routeLocations(at: "/workout-routes/r.gpx") }
        #expect(said.contains("not a regular file"), "\(said)")
    }

    /// A sparse file one byte past the bound: refused by its size, nothing read.
    @Test func aRouteFileOverTheBoundIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("workout-routes/r.gpx").path
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        #expect(fd >= 0 && ftruncate(fd, off_t((128 << 20) + 1)) == 0)
        close(fd)
        let file = try AppleHealthExportFile(url: folder)
        let said = message { _ = try file.routeLocations(at: "/workout-routes/r.gpx") }
        #expect(said.contains("larger than"), "\(said)")
    }

    /// A route point's `<time>` with a 41-digit fraction made ICU's ISO8601DateFormatter trap
    /// (SIGFPE) and `healthctl import` die (red team, session 22, finding 1). Read by
    /// `ISO8601DateTime` now: refused with the point's line, like any other bad point.
    @Test func aRouteTimeWithAHugeFractionIsRefusedNotFatal() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let time = "2024-05-02T05:00:00." + String(repeating: "0", count: 40) + "1Z"
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export"><trk><trkseg>
            <trkpt lon="13.4" lat="52.5"><ele>34</ele><time>2024-05-02T05:00:00Z</time></trkpt>
            <trkpt lon="13.4" lat="52.5"><ele>34</ele><time>\(time)</time></trkpt>
            </trkseg></trk></gpx>
            """
        try Data(gpx.utf8).write(to: folder.appendingPathComponent("workout-routes/r.gpx"))
        let file = try AppleHealthExportFile(url: folder)
        let said = message { _ = try file.routeLocations(at: "/workout-routes/r.gpx") }
        #expect(said.contains("<time> in ISO 8601 form") && said.contains("r.gpx:4:"), "\(said)")
    }

    /// A zip with export.xml and one ECG file, `method`-compressed; `patch` edits its bytes.
    func zip(ecg: String, method: CompressionMethod, patch: (inout [UInt8]) -> Void) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (path, text, compression) in [("apple_health_export/export.xml", Self.exportXML, CompressionMethod.deflate),
                                          ("apple_health_export/electrocardiograms/a.csv", ecg, method)] {
            let bytes = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: compression) { position, size in
                bytes.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        var bytes = [UInt8](try Data(contentsOf: url))
        patch(&bytes)
        try Data(bytes).write(to: url)
        return url
    }

    /// Offsets of every `signature` (little-endian) in `bytes`.
    func offsets(of signature: UInt32, in bytes: [UInt8]) -> [Int] {
        let pattern = withUnsafeBytes(of: signature.littleEndian, Array.init)
        return (0...(bytes.count - 4)).filter { Array(bytes[$0..<$0 + 4]) == pattern }
    }

    func put(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// An entry whose headers say 100 bytes over a deflate stream of 4.8 MB: the reader stops at
    /// its bound while inflating (a bound of 1,000 bytes here), not after taking everything
    /// ZIPFoundation inflates. (The ECG path also refuses such a file after reading it, by
    /// size; the route path did not, and both read it whole first.)
    @Test func anEntryThatInflatesPastItsHeaderStopsAtTheBound() throws {
        let url = try zip(ecg: Self.ecg(voltages: 800_000), method: .deflate) { bytes in
            // The second local header and central record are the ECG's: uncompressed size at
            // 22 and 24 bytes into each.
            if let local = offsets(of: 0x0403_4b50, in: bytes).last { put(100, at: local + 22, in: &bytes) }
            if let central = offsets(of: 0x0201_4b50, in: bytes).last { put(100, at: central + 24, in: &bytes) }
        }
        defer { try? FileManager.default.removeItem(at: url) }
        let archive = try Archive(url: url, accessMode: .read)
        let entry = try #require(archive["apple_health_export/electrocardiograms/a.csv"])
        #expect(entry.uncompressedSize == 100)
        let tooLarge = ExportReadError.io(path: "a.csv", reason: "past the bound")
        #expect(throws: tooLarge) { _ = try ExportSideFileReader.bytes(of: entry, in: archive, limit: 1_000, tooLarge: tooLarge) }
    }

    /// An export.xml whose zip headers say 20 bytes over a deflate stream of ~140: the working
    /// copy stops at the declared size, and the error says which entry, the size it declared,
    /// that nothing was imported and to export again. (Before, the reader threw a sanitizer
    /// error as a carrier and a caught variable held the real message.)
    @Test func anExportXMLThatInflatesPastItsHeaderIsRefusedWithWhatToDo() throws {
        let url = try zip(ecg: Self.ecg(voltages: 3), method: .deflate) { bytes in
            // export.xml is the first entry: its local header and central record come first.
            if let local = offsets(of: 0x0403_4b50, in: bytes).first { put(20, at: local + 22, in: &bytes) }
            if let central = offsets(of: 0x0201_4b50, in: bytes).first { put(20, at: central + 24, in: &bytes) }
        }
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try AppleHealthExportFile(url: url)
            Issue.record("an export.xml inflating past its declared size was accepted")
        } catch {
            #expect(error as? ExportReadError == .inflatesPastDeclaredSize(archive: url.path, entry: "apple_health_export/export.xml",
                                                                          declaredBytes: 20))
            let said = "\(error)"
            #expect(said.contains("apple_health_export/export.xml") && said.contains("20 bytes"), "\(said)")
            #expect(said.contains("nothing was imported") && said.contains("Export All Health Data"), "\(said)")
        }
    }

    /// A stored (uncompressed) ECG whose first voltage was altered after the archive was written.
    @Test func aDamagedStoredEntryIsRefusedByItsChecksum() throws {
        let url = try zip(ecg: Self.ecg(voltages: 3), method: .none) { bytes in
            let digit = Array("40.25".utf8)
            if let at = (0...(bytes.count - digit.count)).first(where: { Array(bytes[$0..<$0 + digit.count]) == digit }) {
                bytes[at] = UInt8(ascii: "9")
            }
        }
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try AppleHealthExportFile(url: url)
        let said = message { _ = try file.electrocardiogram(at: "electrocardiograms/a.csv") }
        #expect(said.contains("CRC-32"), "\(said)")
    }

    /// crashhunt22 finding 2: ZIPFoundation 0.9.20 trusts every offset and size a zip's
    /// directory gives and traps (`off_t(offset)`, `Int64(size)`) on one past Int64.max — the
    /// reviewer's two zips ended `healthctl import` with SIGILL. `ZipBoundsCheck` refuses each
    /// before ZIPFoundation opens the file: the ZIP64 directory offset, an entry's ZIP64
    /// local-header offset and compressed size, 32-bit ones past the end, an entry count the
    /// directory does not hold.
    @Test func aZipWhoseDirectoryPointsPastItsEndIsRefusedBeforeZIPFoundationReadsIt() throws {
        let record = HostileZips.localHeaderOffsetDirectoryRecord
        let plain = [UInt8](try Data(contentsOf: try zip(ecg: Self.ecg(voltages: 3), method: .none) { _ in }))
        let plainEnd = try #require(offsets(of: 0x0605_4b50, in: plain).last)
        let plainRecords = offsets(of: 0x0201_4b50, in: plain)
        let cases: [(String, [UInt8], String)] = [
            ("ZIP64 directory offset 2^64-1", HostileZips.directoryOffset, "the central directory"),
            ("ZIP64 local-header offset 2^64-1", HostileZips.localHeaderOffset, "local header"),
            // The same extra field read as the compressed size: the offset field back to 0,
            // the compressed one all ones (ZIPFoundation: `Int64(size)` when inflating).
            ("ZIP64 compressed size 2^64-1",
             HostileZips.patched(HostileZips.patched(HostileZips.localHeaderOffset, 0, at: record + 42, width: 4), 0xFFFF_FFFF, at: record + 20, width: 4),
             "entry 1's data"),
            ("32-bit directory offset past the end", HostileZips.patched(plain, 0x7FFF_FF00, at: plainEnd + 16, width: 4), "the central directory"),
            ("32-bit local-header offset past the end", HostileZips.patched(plain, 0x7FFF_FF00, at: plainRecords[1] + 42, width: 4), "local header"),
            ("32-bit stored size past the end", HostileZips.patched(plain, 0x7FFF_FF00, at: plainRecords[1] + 24, width: 4), "entry 2's data"),
            ("more entries than the directory holds", HostileZips.patched(plain, 3, at: plainEnd + 10, width: 2), "entry 3's directory record"),
        ]
        for (name, bytes, place) in cases {
            let url = try HostileZips.write(bytes)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            do {
                _ = try AppleHealthExportFile(url: url)
                Issue.record("\(name): accepted")
            } catch {
                guard case .damagedZip? = error as? ExportReadError else {
                    Issue.record("\(name): refused, but not as a damaged zip: \(error)")
                    continue
                }
                let said = "\(error)"
                #expect(said.contains("damaged zip") && said.contains(place), "\(name): \(said)")
                #expect(said.contains("points past the end of the file"), "\(name): \(said)")
            }
        }
    }

    /// ZIPFoundation extracts by the local header's compression method, the bounds check reads
    /// the directory's: an entry whose two disagree would have one extent checked and the other
    /// read (diffreview22, F2), so it is refused.
    @Test func anEntryWhoseLocalHeaderNamesAnotherMethodIsRefused() throws {
        let plain = [UInt8](try Data(contentsOf: try zip(ecg: Self.ecg(voltages: 3), method: .none) { _ in }))
        let locals = offsets(of: 0x0403_4b50, in: plain)
        try #require(locals.count >= 2)
        let url = try HostileZips.write(HostileZips.patched(plain, 8, at: locals[1] + 8, width: 2))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            _ = try AppleHealthExportFile(url: url)
            Issue.record("a stored entry whose local header says deflated was accepted")
        } catch {
            guard case .damagedZip? = error as? ExportReadError else {
                Issue.record("refused, but not as a damaged zip: \(error)")
                return
            }
            #expect("\(error)".contains("different compression methods"), "\(error)")
        }
    }

    /// The checks take what ZIPFoundation takes and no more: the reviewer's first zip with its
    /// ZIP64 record's true directory offset, and a plain zip of ours, open and read as before.
    @Test func aZipWithTrueZIP64FieldsIsRead() throws {
        let honest = HostileZips.patched(HostileZips.directoryOffset, 174, at: HostileZips.directoryOffsetField, width: 8)
        let url = try HostileZips.write(honest)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let file = try AppleHealthExportFile(url: url)
        #expect(file.xmlBytes > 0)
        let ours = try zip(ecg: Self.ecg(voltages: 3), method: .deflate) { _ in }
        defer { try? FileManager.default.removeItem(at: ours) }
        _ = try AppleHealthExportFile(url: ours)
    }
}
