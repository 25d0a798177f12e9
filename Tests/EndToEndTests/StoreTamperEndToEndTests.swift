import Foundation
import Testing

/// DESIGN.md §5, against a real healthd and its real encrypted files: "A flipped bit is detected
/// and reported, never silently read." A store is filled through the app socket and healthd
/// stopped; its database file is then modified the two ways an attacker with the files can —
/// one bit flipped in every page, or whole (validly sealed) pages swapped with their neighbours
/// — and healthd started on it again. The app must get an error rather than samples, and
/// healthd's log must name a page that failed authentication: a SQLite "malformed" error or a
/// wrong answer would mean the cipher read what it should have refused (the mutations
/// `page-tag-unchecked` and `page-place-unbound` in scripts/mutations).
@Suite(.timeLimit(.minutes(10)), .serialized) struct StoreTamperEndToEndTests {
    enum Tampering: String, CaseIterable, Sendable {
        case bitFlippedInEveryPage, neighbouringPagesSwapped
    }

    static let pageSize = 4096

    @Test(arguments: Tampering.allCases)
    func aTamperedStoreIsReportedAndNeverRead(tampering: Tampering) async throws {
        let broker = try RestartableHealthd()
        try broker.start()
        try await SavingApp.install("org.test.tamper", root: broker.root) { try await broker.healthctl($0) }
        let saver = try SavingApp(socket: broker.appSocket)
        var saved: Set<UUID> = []
        // Enough commits that SQLite's automatic checkpoint (at 1,000 WAL pages) has copied
        // pages into the database file: healthd leaves the newest ones in the WAL when it stops.
        for batch in 0..<20 { saved.formUnion(try await saver.save(batch * 2000..<(batch + 1) * 2000)) }
        #expect(try await saver.storedUUIDs() == saved)
        saver.close()
        broker.stop()

        let path = broker.storeDirectory + "/health.sqlite"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let pages = bytes.count / Self.pageSize
        try #require(pages > 20, "the store should span many pages, has \(pages)")
        // Page 1 (the header and schema) is left alone: a change there refuses the open with a
        // wrong-key error, which other tests cover; here healthd must start and meet the pages
        // while reading samples.
        switch tampering {
        case .bitFlippedInEveryPage:
            for page in 2...pages { bytes[(page - 1) * Self.pageSize + 2000] ^= 0x01 }
        case .neighbouringPagesSwapped:
            for page in stride(from: 2, to: pages, by: 2) {
                let first = (page - 1) * Self.pageSize, second = page * Self.pageSize
                let firstPage = Array(bytes[first..<first + Self.pageSize])
                bytes.replaceSubrange(first..<first + Self.pageSize, with: bytes[second..<second + Self.pageSize])
                bytes.replaceSubrange(second..<second + Self.pageSize, with: firstPage)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // healthd may refuse to start (a page it reads at start failed) or start and fail the
        // read; either way it must not answer with samples, and must say which page failed.
        var answered: Int?
        do {
            try broker.start()
            let reader = try SavingApp(socket: broker.appSocket)
            defer { reader.close() }
            answered = try await reader.storedUUIDs().count
        } catch {
            // Expected: the start or the read failed.
        }
        #expect(answered == nil, "healthd answered \(answered ?? 0) samples from a tampered store")
        #expect(broker.log.contains("database page") && broker.log.contains("failed authentication"),
                "healthd's log does not name a page that failed authentication: \(broker.log.suffix(3000))")
    }
}
