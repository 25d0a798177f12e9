import HealthSandboxKit
import Testing

/// The launch agent takes app ids by the manifest's rule (`AppIDRule` through `LaunchAppID`): its
/// per-app folder options and its running-apps table are keyed by id, where Swift's equality would
/// make `com.example.\u{212A}eep` (KELVIN SIGN) the app `com.example.Keep`; and an id starting with
/// '-' reads as an option. Before session 22 it took any id without '/' or a leading '.'.
@Suite(.timeLimit(.minutes(10))) struct AgentAppIDTests {
    @Test(arguments: ["com.example.\u{212A}eep", "-com.example.keep", "com.example.caf\u{E9}"])
    func perAppOptionsRefuseIDsOutsideTheRule(id: String) {
        #expect(throws: AgentFolderRefusal.invalidAppID(option: "--app-allow-read", appID: id)) {
            try AgentFolderGrants.perApp(readable: ["\(id)=/srv/keep"], writable: [])
        }
    }

    @Test func aManifestIDIsTaken() throws {
        let folders = try AgentFolderGrants.perApp(readable: ["com.example.Keep=/srv/keep"], writable: [])
        #expect(folders["com.example.Keep"]?.readable == ["/srv/keep"])
    }
}
