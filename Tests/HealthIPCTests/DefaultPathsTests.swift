import HealthIPC
import Testing

/// Where healthd listens, and clients look, when no flag says otherwise. Without
/// `XDG_RUNTIME_DIR` (sudo, ssh without pam_systemd, cron, containers) the folder is one in the
/// user's home, which no other user can create first — never a name in the shared `/tmp`
/// (session 17 red team, finding 2).
@Suite(.timeLimit(.minutes(10))) struct DefaultPathsTests {
    @Test func theRuntimeFolderWinsWhenSet() {
        #expect(DefaultPaths.socketDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/u"]) == "/run/user/1000/openhealth")
    }

    @Test(arguments: [[:], ["XDG_RUNTIME_DIR": ""], ["XDG_RUNTIME_DIR": "relative/dir"]] as [[String: String]])
    func withoutARuntimeFolderTheSocketsLiveInTheHome(runtime: [String: String]) {
        var environment = runtime
        environment["HOME"] = "/home/u"
        #expect(DefaultPaths.socketDirectory(environment: environment) == "/home/u/.local/state/openhealth/run")
        environment["XDG_STATE_HOME"] = "/srv/state"
        #expect(DefaultPaths.socketDirectory(environment: environment) == "/srv/state/openhealth/run")
    }

    @Test func noDefaultIsInTheSharedTemporaryFolder() {
        for environment in [[:], ["HOME": "/home/u"], ["XDG_STATE_HOME": "relative"]] as [[String: String]] {
            #expect(!DefaultPaths.socketDirectory(environment: environment).hasPrefix("/tmp"), "\(environment)")
        }
    }
}
