import Foundation
import Testing
import TestSupport

/// `healthctl import` of the reviewer's zips whose ZIP64 fields point past their own end
/// (crashhunt22, finding 2): healthctl ended with SIGILL inside ZIPFoundation (`off_t` of an
/// offset past Int64.max). Now each is refused as a damaged zip — exit 65, what to do — before
/// ZIPFoundation opens it, and healthd (never involved) still answers.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileZipImportEndToEndTests {
    @Test func aZipWhoseZIP64FieldsPointPastItsEndIsRefusedWithExit65() async throws {
        let broker = try BrokerProcess()
        for (name, bytes) in [("ZIP64 directory offset", HostileZips.directoryOffset),
                              ("ZIP64 local-header offset", HostileZips.localHeaderOffset)] {
            let url = try HostileZips.write(bytes)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let result = try await broker.healthctl(["import", url.path])
            #expect(result.status == 65, "\(name): \(result)")
            #expect(result.stderr.contains("damaged zip") && result.stderr.contains("points past the end of the file"),
                    "\(name): \(result)")
            #expect(result.stderr.contains("Export All Health Data"), "\(name): \(result)")
        }
        let status = try await broker.healthctl(["status"])
        #expect(status.status == 0, "\(status)")
        #expect(broker.isRunning)
    }
}
