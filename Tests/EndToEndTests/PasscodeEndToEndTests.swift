import Foundation
import Testing

/// `healthctl passcode set|change|remove` against a real healthd, and what each means for the
/// next start of healthd. Each passcode check runs scrypt with the real parameters.
@Suite(.timeLimit(.minutes(10)), .serialized) struct PasscodeEndToEndTests {
    @Test func aPasscodeIsNeededToStartUntilItIsRemoved() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await SavingApp.install("org.test.locked", root: healthd.root) { try await healthd.healthctl($0) }
        var saved: Set<UUID> = []
        do {
            let app = try SavingApp(socket: healthd.appSocket)
            defer { app.close() }
            for index in 0..<5 { saved.insert(try await app.save(index)) }

            let set = try await healthd.healthctl(["passcode", "set"], stdin: "first secret\nfirst secret\n")
            #expect(set.status == 0, "\(set)")
            #expect(set.stdout.contains("--passcode-file"))
            // healthd reopened the store under the passcode and still serves the app.
            saved.insert(try await app.save(5))
        }
        healthd.stop()

        let withoutPasscode = try await healthd.startRefused()
        #expect(withoutPasscode.status != 0)
        #expect(withoutPasscode.stderr.contains("protected by a passcode"), "\(withoutPasscode)")
        #expect(withoutPasscode.stderr.contains("--passcode-file"))
        let wrongPasscode = try await healthd.startRefused(["--passcode-file", healthd.passcodeFile("second secret")])
        #expect(wrongPasscode.status != 0)
        #expect(wrongPasscode.stderr.contains("does not unlock"), "\(wrongPasscode)")

        try healthd.start(["--passcode-file", healthd.passcodeFile("first secret")])
        let change = try await healthd.healthctl(["passcode", "change"], stdin: "first secret\nsecond secret\nsecond secret\n")
        #expect(change.status == 0, "\(change)")
        healthd.stop()

        let oldPasscode = try await healthd.startRefused(["--passcode-file", healthd.passcodeFile("first secret")])
        #expect(oldPasscode.stderr.contains("does not unlock"), "\(oldPasscode)")
        try healthd.start(["--passcode-stdin"], standardInput: "second secret\n")
        let remove = try await healthd.healthctl(["passcode", "remove"], stdin: "second secret\n")
        #expect(remove.status == 0, "\(remove)")
        healthd.stop()

        try healthd.start()
        let app = try SavingApp(socket: healthd.appSocket)
        defer { app.close() }
        #expect(try await app.storedUUIDs() == saved)
        #expect(!healthd.log.contains("first secret") && !healthd.log.contains("second secret"))
    }

    @Test func mistakesAreRefusedAndChangeNothing() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let keysPath = healthd.storeDirectory + "/store.keys"
        let keys = try Data(contentsOf: URL(fileURLWithPath: keysPath))

        let mismatch = try await healthd.healthctl(["passcode", "set"], stdin: "one\ntwo\n")
        #expect(mismatch.status == 65, "\(mismatch)")
        #expect(mismatch.stderr.contains("differ"))
        let empty = try await healthd.healthctl(["passcode", "set"], stdin: "\n")
        #expect(empty.status == 65, "\(empty)")
        let removeUnset = try await healthd.healthctl(["passcode", "remove"], stdin: "anything\n")
        #expect(removeUnset.status == 65, "\(removeUnset)")
        #expect(removeUnset.stderr.contains("has no passcode"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: keysPath)) == keys)

        let set = try await healthd.healthctl(["passcode", "set"], stdin: "right\nright\n")
        #expect(set.status == 0, "\(set)")
        let wrongChange = try await healthd.healthctl(["passcode", "change"], stdin: "wrong\nnew\nnew\n")
        #expect(wrongChange.status == 65, "\(wrongChange)")
        #expect(wrongChange.stderr.contains("does not unlock"))
        let wrongRotate = try await healthd.healthctl(["key", "rotate"], stdin: "wrong\n")
        #expect(wrongRotate.status == 65, "\(wrongRotate)")
        let rotate = try await healthd.healthctl(["key", "rotate"], stdin: "right\n")
        #expect(rotate.status == 0, "\(rotate)")
        let status = try await healthd.healthctl(["status"])
        #expect(status.status == 0, "\(status)")
    }
}
