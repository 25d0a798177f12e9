import Foundation
import Glibc
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// What the storage count charges an app (`StoredSize`) against what its objects make the real,
/// encrypted `health.sqlite` grow by, measured after the write-ahead log is checkpointed into it.
/// Twin worlds: the same objects with metadata of ASCII filler, and of control characters, which
/// the stored JSON writes as 6 bytes each (`\u0001`). Before session 21 both were charged the same
/// raw UTF-8 bytes and the control world stored 6.2 times that (availability review 21, finding
/// 3); a new device row, which holds its text three times, was charged it once.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StoredSizeOnDiskTests {
    static let app = SourceRecord(bundleIdentifier: "org.example.filler", name: "Filler", version: "1.0")
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    struct Growth: CustomStringConvertible {
        let file: Int64
        let charged: Int64
        var description: String { "file +\(file) bytes, charged \(charged)" }
    }

    static func steps(_ index: Int, metadata: [String: MetadataValue] = [:], device: DeviceRecord? = nil) -> SampleRecord {
        let date = start.addingTimeInterval(Double(index) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: date,
                            endDate: date.addingTimeInterval(60), value: .quantity(Double(index % 100), unit: "count"),
                            metadata: metadata, device: device)
    }

    /// `entries` metadata entries of `filler`: keys of `keyBytes` (a distinct prefix each),
    /// string values of `valueBytes`.
    static func metadata(_ filler: Character, entries: Int, keyBytes: Int, valueBytes: Int) -> [String: MetadataValue] {
        Dictionary(uniqueKeysWithValues: (0..<entries).map { entry in
            let prefix = String(format: "%03d", entry)
            return (prefix + String(repeating: filler, count: keyBytes - prefix.utf8.count),
                    MetadataValue.string(String(repeating: filler, count: valueBytes)))
        })
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : -1
    }

    /// Saves `writes` into a fresh encrypted store — after one plain sample, so the schema, the
    /// type and the source exist — and returns what the file and the app's count grew by.
    static func growth(_ writes: [[SampleRecord]]) async throws -> Growth {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer, sideReader: store.sideReader)
        _ = try await database.samples.insert([steps(0)], source: app)
        func settled() throws -> (file: Int64, charged: Int64) {
            // The store's background checkpointer may hold the WAL for a moment (SQLITE_BUSY).
            for attempt in 1... {
                do {
                    _ = try store.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
                    break
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 100 {
                    usleep(20_000)
                }
            }
            return (fileSize(directory.file("health.sqlite")), database.storage.used(appID: app.bundleIdentifier))
        }
        let before = try settled()
        for write in writes { _ = try await database.samples.insert(write, source: app) }
        let after = try settled()
        return Growth(file: after.file - before.file, charged: after.charged - before.charged)
    }

    /// Shapes of metadata an app may choose: at the validator's limits (overflow pages), and one
    /// entry sized so that a row is just past half a page (a leaf page per row).
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case largest
        case halfPage

        var writes: (Character) -> [[SampleRecord]] {
            switch self {
            case .largest:
                { filler in
                    (1...30).map { [StoredSizeOnDiskTests.steps($0, metadata: metadata(filler, entries: 16, keyBytes: 256, valueBytes: 4_096))] }
                }
            case .halfPage:
                { filler in
                    [(1...200).map { StoredSizeOnDiskTests.steps($0, metadata: metadata(filler, entries: 1, keyBytes: 16, valueBytes: 1_960)) }]
                }
            }
        }

        var testDescription: String { rawValue }
    }

    /// The file grows by whole pages, and an index's next leaf page comes with whichever row
    /// fills the last one, where the count charges each row its share: one page of difference.
    static let pageGrain = StoredSize.page

    /// In both twins, the count rises by at least what the file grew by; the control world's
    /// file grows several times the ASCII world's, so the measure sees the escapes.
    @Test(arguments: Shape.allCases)
    func metadataIsChargedAtLeastWhatTheFileGrowsBy(_ shape: Shape) async throws {
        let ascii = try await Self.growth(shape.writes("a"))
        let control = try await Self.growth(shape.writes("\u{01}"))
        print("\(shape.rawValue): ASCII \(ascii); control characters \(control)")
        #expect(ascii.charged + Self.pageGrain >= ascii.file, "ASCII metadata: \(ascii)")
        #expect(control.charged + Self.pageGrain >= control.file, "control-character metadata: \(control)")
        #expect(control.file > 2 * ascii.file, "the twins grew alike: \(ascii) and \(control)")
    }

    /// Every sample names a new device of 8 × 1 KiB of text (the validator's limit per field), in
    /// any order of fingerprints: the count rises by at least what the file grew by.
    @Test func newDevicesAreChargedAtLeastWhatTheFileGrowsBy() async throws {
        let records = (1...120).map { index in
            let text = { (field: Int) in UUID().uuidString + "\(field)" + String(repeating: "d", count: 1_024 - 38) }
            return Self.steps(index, device: DeviceRecord(name: text(0), manufacturer: text(1), model: text(2), hardwareVersion: text(3),
                                                          firmwareVersion: text(4), softwareVersion: text(5), localIdentifier: text(6),
                                                          udiDeviceIdentifier: text(7)))
        }
        let devices = try await Self.growth([records])
        print("120 new devices: \(devices)")
        #expect(devices.charged + Self.pageGrain >= devices.file, "\(devices)")
    }
}
