import Foundation
import Glibc
import Testing
import TestSupport

/// `healthctl import` keeps a sanitized copy of export.xml while it parses it (session 18 storage
/// review, finding 6). It lived in `$TMPDIR/openhealth-import-UUID/` and was removed only in a
/// deinit, so a kill left the export's plaintext there. The copy is now unlinked the moment it is
/// made (`ImportWorkingCopy`): this kills a real healthctl while it writes the copy and then
/// searches every file under the folders it was given for the export's marker. No healthd is
/// needed: the copy is made before healthctl connects.
@Suite(.timeLimit(.minutes(10))) struct ImportWorkingCopyEndToEndTests {
    static let marker = "WorkingCopyMarkerSource"

    /// An export of `records` step counts, each naming the marker source: about 150 bytes a record.
    static func writeExport(records: Int, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? file.close() }
        try file.write(contentsOf: Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n".utf8))
        let record = "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(marker)\" unit=\"count\" value=\"12\" "
            + "startDate=\"2024-05-01 10:00:00 +0000\" endDate=\"2024-05-01 10:01:00 +0000\"/>\n"
        let chunk = Data(String(repeating: record, count: 10_000).utf8)
        for _ in 0..<(records / 10_000) { try file.write(contentsOf: chunk) }
        try file.write(contentsOf: Data("</HealthData>\n".utf8))
    }

    /// healthctl's open descriptor for its working copy (the old copy's folder or the new one's),
    /// with the bytes written so far.
    static func workingCopy(of pid: pid_t) -> (path: String, bytes: Int)? {
        let folder = "/proc/\(pid)/fd"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let link = folder + "/" + name
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
                  target.contains("openhealth-import") else { continue }
            var status = stat()
            guard stat(link, &status) == 0 else { continue }
            return (target, Int(status.st_size))
        }
        return nil
    }

    static func filesHoldingMarker(under root: String, except excluded: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return names.map { root + "/" + $0 }.filter { path in
            var isDirectory: ObjCBool = false
            guard path != excluded, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: path) else { return false }
            return data.range(of: Data(marker.utf8)) != nil
        }
    }

    @Test func aKilledImportLeavesNoCopyOfTheExport() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("import-kill-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["data", "tmp", "home"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        let export = root + "/export.xml"
        try Self.writeExport(records: 300_000, to: export)  // ~45 MB: the copy takes a while to write

        let child = try ChildProcess(Products.path("healthctl"), ["import", export, "--socket", root + "/nobody.sock"],
                                     environment: ["XDG_DATA_HOME": root + "/data", "TMPDIR": root + "/tmp", "HOME": root + "/home"])
        // Watched from a thread of its own: under a loaded full run the cooperative pool's
        // threads were busy, the 2 ms polls of a task came too late, and healthctl had finished
        // its copy before any look saw it.
        let seen: (path: String, bytes: Int)? = await withCheckedContinuation { continuation in
            Thread {
                let deadline = ContinuousClock.now + .seconds(120)
                while child.isRunning, ContinuousClock.now < deadline {
                    if let copy = Self.workingCopy(of: child.pid), copy.bytes >= 1 << 20 {
                        kill(child.pid, SIGKILL)
                        continuation.resume(returning: copy)
                        return
                    }
                    usleep(1_000)
                }
                continuation.resume(returning: nil)
            }.start()
        }
        let status = await child.wait(timeout: 60)
        let copy = try #require(seen, "healthctl ended (status \(status)) before its working copy passed 1 MiB")
        #expect(status == 128 + SIGKILL)
        #expect(copy.path.hasPrefix(root + "/data/openhealth-import/"), "the working copy was at \(copy.path)")
        #expect(copy.path.hasSuffix(" (deleted)"), "the working copy had a name while written: \(copy.path)")
        #expect(Self.filesHoldingMarker(under: root, except: export).isEmpty)
    }
}
