import HealthModel
import HealthSandboxKit
import Testing

/// What `health-sandbox run` as root accepts from healthd as the app's uid: only numbers of
/// `AppSandboxIDRange`, so no answer — an older healthd's 0, a bug's 1000 — makes it run an app
/// as root or as a real account.
@Suite(.timeLimit(.minutes(10))) struct AppIdentitySwitchTests {
    @Test(arguments: [UInt32(0), 1, 1000, 65534, AppSandboxIDRange.first - 1, AppSandboxIDRange.last + 1, UInt32.max])
    func aNumberOutsideTheRangeIsRefusedNamingIt(uid: UInt32) {
        #expect {
            try AppIdentitySwitch(sandboxUID: uid, appID: "org.test.app")
        } throws: { error in
            let text = "\(error)"
            return text.contains("\(uid)") && text.contains("org.test.app") && text.contains("outside the sandbox range")
        }
    }

    @Test(arguments: [AppSandboxIDRange.first, AppSandboxIDRange.first + 1, AppSandboxIDRange.last])
    func aNumberInTheRangeIsBothUIDAndGID(uid: UInt32) throws {
        let identity = try AppIdentitySwitch(sandboxUID: uid, appID: "org.test.app")
        #expect(identity.uid == uid && identity.gid == uid)
    }
}
