import CPageCipher
import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// A deleted sample's bytes are gone from the database file, not only from its tables: the writer
/// runs with `PRAGMA secure_delete = ON` (`CipherDatabaseOpener.openPool`), so SQLite zeroes freed
/// cells and freed pages (overflow pages of large values included). Encryption keeps them from a
/// disk reader either way; this is about whoever later holds the key. Checked by decrypting every
/// page of `health.sqlite` with the store's own key and searching the plaintext.
@Suite(.timeLimit(.minutes(10))) struct SecureDeleteTests {
    static let source = SourceRecord(bundleIdentifier: "org.example.secure-delete", name: "Deleter", version: "1")
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    /// In a small sample's one metadata value (a b-tree cell), and in a large one's values (overflow pages).
    static let smallMarker = "SecureDeleteSmallMarker"
    static let largeMarker = "SecureDeleteLargeMarker"
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func sample(_ index: Int, metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        let date = start.addingTimeInterval(Double(index) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: date, endDate: date.addingTimeInterval(30),
                            value: .quantity(Double(index), unit: "count"), metadata: metadata)
    }

    /// Every page of the checkpointed store's database file, decrypted.
    static func plaintextPages(_ directory: TemporaryDirectory) throws -> [[UInt8]] {
        let layout = try StoreLayout(directory: directory.path, create: false)
        let envelope = try #require(try KeyEnvelope.load(layout))
        let dataKey = try KeyCustody(layout: layout).unwrap(envelope.current, passcode: nil)
        var pageKey = [UInt8](repeating: 0, count: Int(OHK_CIPHER_KEY_BYTES))
        let info = Array("openhealthkit page v1".utf8)
        let derived = dataKey.withUnsafeBytes { secret in
            ohk_hkdf_sha256(secret, dataKey.count, nil, 0, info, info.count, &pageKey, pageKey.count)
        }
        try #require(derived == 1)
        let file = StoreFiles.read(layout.databasePath)
        let size = Int(OHK_CIPHER_PAGE_SIZE), body = size - Int(OHK_CIPHER_RESERVED_BYTES)
        return try stride(from: 0, to: file.count, by: size).map { offset in
            let page = Array(file[offset..<offset + size])
            let number = UInt64(offset / size + 1)
            let aad = Array("OHK1".utf8) + [0, 0, 0, 1] + withUnsafeBytes(of: number.bigEndian) { Array($0) }
            var plain = [UInt8](repeating: 0, count: body)
            let opened = ohk_aead_open(pageKey, aad, aad.count, page, body, Array(page[body..<body + 12]),
                                       Array(page[(body + 12)...]), &plain)
            try #require(opened == 1, "page \(number) does not open under the store's key")
            return plain
        }
    }

    static func pagesHolding(_ marker: String, in pages: [[UInt8]]) -> [Int] {
        pages.indices.filter { StoreFiles.contains(pages[$0], Array(marker.utf8)) }.map { $0 + 1 }
    }

    @Test func aDeletedSamplesBytesAreInNoPageOfTheDatabase() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer, sideReader: store.sideReader)
        _ = try await database.samples.insert((0..<300).map { Self.sample($0) }, source: Self.source)
        // 16 values of 4,000 bytes: a row of ~64 KB, most of it on overflow pages.
        let large = Dictionary(uniqueKeysWithValues: (0..<16).map { key in
            ("org.example.note\(key)", MetadataValue.string(String(repeating: Self.largeMarker, count: 4_000 / Self.largeMarker.count)))
        })
        let saved = try await database.samples.insert([Self.sample(300, metadata: ["org.example.note": .string(Self.smallMarker)]),
                                                       Self.sample(301, metadata: large)], source: Self.source)
        _ = try await database.samples.insert((302..<400).map { Self.sample($0) }, source: Self.source)
        try await store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }

        // The search can fail: before the deletion both markers are in the file.
        let before = try Self.plaintextPages(directory)
        try #require(!Self.pagesHolding(Self.smallMarker, in: before).isEmpty)
        try #require(Self.pagesHolding(Self.largeMarker, in: before).count >= 10)

        let deleted = try await database.samples.delete(saved.map { ObjectReference(typeIdentifier: Self.steps, uuid: $0) },
                                                        appID: Self.source.bundleIdentifier)
        #expect(deleted == 2)
        try await store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }

        let after = try Self.plaintextPages(directory)
        #expect(Self.pagesHolding(Self.smallMarker, in: after).isEmpty, "pages \(Self.pagesHolding(Self.smallMarker, in: after))")
        #expect(Self.pagesHolding(Self.largeMarker, in: after).isEmpty, "pages \(Self.pagesHolding(Self.largeMarker, in: after))")
        // What the deletion wrote went through the WAL, now copied into the file and cut to nothing.
        #expect(StoreFiles.read(directory.file("health.sqlite-wal")).isEmpty)
        withExtendedLifetime(store) {}
    }
}
