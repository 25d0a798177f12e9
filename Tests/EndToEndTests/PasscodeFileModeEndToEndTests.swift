import Foundation
import Glibc
import Testing

/// healthd refuses a passcode file others can read or that another user owns (session 18 storage
/// review): such a file has given the passcode away already, or lets its owner choose it. Each
/// refusal names the fix. A 0600 file of the user's own starts healthd (PasscodeEndToEndTests).
/// Fails before the check: healthd started with each file.
@Suite(.timeLimit(.minutes(10)), .serialized) struct PasscodeFileModeEndToEndTests {
    @Test func aPasscodeFileOthersCanReadOrOwnIsRefused() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let set = try await healthd.healthctl(["passcode", "set"], stdin: "a secret\na secret\n")
        #expect(set.status == 0, "\(set)")
        healthd.stop()

        for mode: mode_t in [0o644, 0o640, 0o604, 0o620] {
            let file = try healthd.passcodeFile("a secret")
            #expect(chmod(file, mode) == 0)
            let refused = try await healthd.startRefused(["--passcode-file", file])
            #expect(refused.status != 0, "mode \(String(mode, radix: 8))")
            #expect(refused.stderr.contains("chmod 600 \(file)"), "mode \(String(mode, radix: 8)): \(refused)")
        }
        if geteuid() == 0 {
            let file = try healthd.passcodeFile("a secret")
            #expect(chown(file, 65_534, 65_534) == 0)
            let refused = try await healthd.startRefused(["--passcode-file", file])
            #expect(refused.stderr.contains("belongs to uid 65534"), "\(refused)")
        }
        try healthd.start(["--passcode-file", try healthd.passcodeFile("a secret")])
        healthd.stop()
    }
}
