import Foundation
import Testing
import TestSupport

/// `healthctl status` shows every pending journal a merge kept as damaged — where it is, its
/// size, what its merge lost and what the user can do — and keeps showing it after a restart,
/// until the user removes it. Before, a damaged journal was reported once, in `healthctl
/// unlock`'s answer and healthd's log, and status said nothing (`aDamagedJournalIsShown…` failed
/// on the "Damaged journal" line: the status had none).
///
/// The damage is made as `PendingJournalDamageTests` makes it: one byte of a sealed entry
/// flipped on disk while the store is locked, so that entry fails authentication at the merge.
@Suite(.timeLimit(.minutes(10)), .serialized) struct DamagedJournalStatusEndToEndTests {
    static let appID = "org.test.damaged-journal"

    private func expectSuccess(_ result: ProcessResult, _ comment: String = "") {
        #expect(result.status == 0, "\(comment) \(result)")
    }

    /// The status's lines from the "Damaged journal" heading on.
    private static func damagedSection(_ status: ProcessResult) -> [String] {
        let lines = status.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Damaged journal") }) else { return [] }
        return Array(lines[start...])
    }

    @Test func aDamagedJournalIsShownWithWhatWasLostAndWhatToDoUntilRemoved() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await SavingApp.install(Self.appID, root: healthd.root) { try await healthd.healthctl($0) }
        let app = try LockedStoreApp(socket: healthd.appSocket)
        defer { app.close() }

        let healthy = try await healthd.healthctl(["status"])
        expectSuccess(healthy)
        #expect(Self.damagedSection(healthy).isEmpty, "\(healthy.stdout)")

        expectSuccess(try await healthd.healthctl(["lock"]))
        for index in 0..<3 { _ = try await app.save(index..<index + 1, marker: "damaged-journal") }
        // `storeFiles` gives full paths.
        let journalPath = try #require(healthd.storeFiles().first { $0.hasSuffix(".journal") }, "\(healthd.storeFiles())")
        // The file's last byte is the last entry's ciphertext: that entry fails authentication.
        let handle = try #require(FileHandle(forUpdatingAtPath: journalPath))
        let end = try handle.seekToEnd()
        try handle.seek(toOffset: end - 1)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: end - 1)
        try handle.write(contentsOf: [byte ^ 0x01])
        try handle.close()

        let unlock = try await healthd.healthctl(["unlock"])
        expectSuccess(unlock)
        #expect(unlock.stdout.contains("damaged") || unlock.stderr.contains("damaged"), "\(unlock)")
        let kept = journalPath + ".damaged"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: kept)[.size] as? Int)

        for moment in ["after the unlock", "after a restart"] {
            let status = try await healthd.healthctl(["status"])
            expectSuccess(status, moment)
            let section = Self.damagedSection(status)
            let text = section.joined(separator: "\n")
            #expect(section.first?.contains("1 kept") == true, "\(moment): \(status.stdout)")
            #expect(text.contains(kept), "\(moment): the path: \(text)")
            #expect(text.contains("\(size) bytes"), "\(moment): the size: \(text)")
            #expect(text.contains("entry") && text.contains("failed authentication"), "\(moment): what was lost: \(text)")
            #expect(text.contains("rm ") && text.contains("check"), "\(moment): what to do: \(text)")
            if moment == "after the unlock" {
                healthd.stop()
                try healthd.start()
            }
        }

        try FileManager.default.removeItem(atPath: kept)
        try FileManager.default.removeItem(atPath: kept + ".lost")
        let cleared = try await healthd.healthctl(["status"])
        expectSuccess(cleared)
        #expect(Self.damagedSection(cleared).isEmpty, "\(cleared.stdout)")
    }
}
