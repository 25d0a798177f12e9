import Foundation
import Glibc
import Testing
import TestSupport

/// healthd's Landlock walls (SECURITY.md "healthd's own confinement"): `broker-confine-probe`
/// starts the peer inspector and applies `BrokerFileConfinement` — the policy and the C call
/// healthd makes, built from a store and a sockets' folder as healthd builds it from its options —
/// then tries what a hijacked healthd might. Each attempt is made once unconfined (the control:
/// it succeeds without the ruleset, so the confined run's refusal is the ruleset's doing) and once
/// confined, as root and as an ordinary user. Errnos are the kernel's (Landlock ABI 7 here):
/// EACCES for files, renames and links out of or into the store (the other side grants no right,
/// so it is not EXDEV), exec; EPERM for scoped signals and abstract sockets (ABI 6+).
@Suite(.timeLimit(.minutes(10))) struct BrokerFileConfinementTests {
    /// What healthd does while serving: each succeeds confined too.
    static let allowed = ["store-create", "store-read", "store-truncate", "store-rename", "store-remove",
                          "socket-dir-bind", "own-proc", "zoneinfo",
                          // /proc is readable (libdispatch reads its threads' /proc/TID/stat);
                          // what the ptrace check guards is not (peer-exe-direct).
                          "peer-proc-status"]

    /// What it must not, with the errno the kernel gives confined.
    static var refused: [String: Int32] {
        var refused: [String: Int32] = [
            "home-read": EACCES, "home-write": EACCES, "home-create": EACCES, "home-truncate": EACCES,
            "home-mkdir": EACCES, "etc-read": EACCES, "other-store-read": EACCES,
            "rename-out-of-store": EACCES, "rename-into-store": EACCES, "link-out-of-store": EACCES,
            "exec": EACCES,
            // /proc/PID/exe is behind the ptrace check, which Landlock refuses outside the domain:
            // why healthd asks its peer inspector.
            "peer-exe-direct": EACCES,
            // So are another process's environment, auxiliary vector and maps — but root with its
            // capabilities opened them inside the domain (session 14's finding); healthd drops
            // every capability, after which root is refused as an ordinary user is. Fails as root
            // without the drop ("ok" for all three).
            "peer-proc-environ": EACCES, "peer-proc-auxv": EACCES, "peer-proc-maps": EACCES,
        ]
        if KernelFeatures.hasLandlockScopes {
            refused["signal-outside"] = EPERM
            refused["abstract-connect-outside"] = EPERM
        }
        return refused
    }

    /// What a hijacked healthd would do with Unix sockets: reach the user's session bus, `systemd
    /// --user` or ssh-agent (pathname sockets, which Landlock does not cover) to run a command
    /// outside every wall. healthd's seccomp filter (`ohk_confine_broker`, on once it serves)
    /// refuses each with EPERM; a socket pair, which a launch binding needs, stays.
    static let socketAttemptsRefused = ["unix-socket-create", "pathname-connect-early-socket", "datagram-sendto-address"]

    /// A store, a sockets' folder, a "home" with a key file and another store, owned by `user`.
    struct Workspace {
        let root: String
        var store: String { root + "/store" }
        var sockets: String { root + "/run" }
        var home: String { root + "/home" }
        var otherStoreFile: String { root + "/other-store/machine.key" }

        init(owner: (uid: uid_t, gid: gid_t)) throws {
            root = NSTemporaryDirectory() + "ohk-broker-files-" + UUID().uuidString.prefix(8)
            let manager = FileManager.default
            try manager.createDirectory(atPath: root, withIntermediateDirectories: true,
                                        attributes: [.posixPermissions: 0o755])
            for folder in [store, sockets, home, root + "/other-store"] {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                            attributes: [.posixPermissions: 0o700])
            }
            _ = manager.createFile(atPath: home + "/id_ed25519", contents: Data("secret".utf8), attributes: [.posixPermissions: 0o600])
            _ = manager.createFile(atPath: otherStoreFile, contents: Data("key".utf8), attributes: [.posixPermissions: 0o600])
            for path in [store, sockets, home, root + "/other-store", home + "/id_ed25519", otherStoreFile] {
                chown(path, owner.uid, owner.gid)
            }
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Runs the probe as `user`; its lines as name → result ("ok", "errno N", a path).
    func probe(as user: EscapeUser, confined: Bool, extra: [String] = []) async throws -> (lines: [String: String], result: ProcessResult) {
        let workspace = try Workspace(owner: try await user.ids())
        defer { workspace.remove() }
        var arguments = ["--store", workspace.store, "--socket-dir", workspace.sockets,
                         "--outside-dir", workspace.home, "--other-store-file", workspace.otherStoreFile] + extra
        if !confined { arguments.append("--no-confine") }
        let result = try await user.run(Products.path("broker-confine-probe"), arguments)
        var lines: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { lines[String(parts[0])] = String(parts[1]) }
        }
        return (lines, result)
    }

    @Test(arguments: EscapeUser.allCases)
    func withoutTheRulesetEveryAttemptSucceeds(user: EscapeUser) async throws {
        try #require(user.isAvailable, "cannot run as \(user) here")
        let (lines, result) = try await probe(as: user, confined: false)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for name in Self.allowed + Self.refused.keys.sorted() + Self.socketAttemptsRefused + ["socketpair"] {
            #expect(lines[name] == "ok", "\(name) unconfined as \(user): \(lines[name] ?? "missing")")
        }
        #expect(lines["peer-exe-inspected"] == Products.path("broker-confine-probe"))
        #expect(lines["peer-confined-inspected"] == "false")
    }

    @Test(arguments: EscapeUser.allCases)
    func confinedHealthdReachesOnlyItsFolders(user: EscapeUser) async throws {
        try #require(user.isAvailable, "cannot run as \(user) here")
        try #require(KernelFeatures.hasLandlock, "this kernel has no Landlock; healthd runs without the wall and logs so")
        let (lines, result) = try await probe(as: user, confined: true)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(lines["landlock-abi"] == String(KernelFeatures.landlockABI))
        for name in Self.allowed {
            #expect(lines[name] == "ok", "\(name) confined as \(user): \(lines[name] ?? "missing")")
        }
        for (name, errno) in Self.refused.sorted(by: { $0.key < $1.key }) {
            #expect(lines[name] == "errno \(errno)", "\(name) confined as \(user): \(lines[name] ?? "missing")")
        }
        // No capability is left, as root too.
        #expect(lines["cap-eff"] == "0000000000000000", "capabilities left confined as \(user): \(lines["cap-eff"] ?? "missing")")
        // What healthd can no longer read itself, its inspector still reads for it: a peer
        // connected on a socket is identified by PeerCredentials.of as before.
        #expect(lines["peer-exe-inspected"] == Products.path("broker-confine-probe"))
        #expect(lines["peer-confined-inspected"] == "false")
    }

    /// Landlock's walls and then healthd's seccomp filter, as healthd has them once it serves: no new
    /// socket, no connect (also on a socket made before), no datagram to an address of its
    /// choosing. Fails without the socket rules in `ohk_confine_broker` (each line "ok").
    @Test(arguments: EscapeUser.allCases)
    func servingHealthdCannotReachAnotherSocket(user: EscapeUser) async throws {
        try #require(user.isAvailable, "cannot run as \(user) here")
        let (lines, result) = try await probe(as: user, confined: KernelFeatures.hasLandlock, extra: ["--broker-seccomp"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(lines["broker-seccomp"] == "on", "\(result.stdout)")
        for name in Self.socketAttemptsRefused {
            #expect(lines[name] == "errno \(EPERM)", "\(name) under healthd's filter as \(user): \(lines[name] ?? "missing")")
        }
        #expect(lines["socketpair"] == "ok", "socketpair under healthd's filter as \(user): \(lines["socketpair"] ?? "missing")")
    }

    /// Landlock confines only the calling thread and those it starts later: with another thread
    /// already running, the broker refuses rather than run half-confined.
    @Test func aSecondThreadMakesTheConfinementRefuse() async throws {
        try #require(KernelFeatures.hasLandlock, "this kernel has no Landlock")
        let (lines, result) = try await probe(as: .root, confined: true, extra: ["--thread-first"])
        #expect(result.status == 3)
        // Two or more: the Swift runtime may have started one of its own by then.
        #expect(result.stdout.contains("threads; Landlock would confine only this one"), "\(result.stdout)")
        #expect(lines["home-read"] == nil)
    }
}
