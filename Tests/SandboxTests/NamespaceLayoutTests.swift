import HealthSandboxKit
import Testing

/// The bubblewrap command line health-sandbox builds: what the app's namespaces contain.
@Suite(.timeLimit(.minutes(10))) struct NamespaceLayoutTests {
    static func layout(root: Bool = false, readable: [String] = [], writable: [String] = []) -> NamespaceLayout {
        NamespaceLayout(launcher: "/opt/ohk/bin/health-sandbox", executable: "/opt/apps/a/app", arguments: ["/opt/apps/a/app", "-v"],
                        boundSocket: 7, policy: LaunchPolicy(readExecutePaths: ["/usr/lib", "/proc", "/dev/urandom", "/opt/apps/a"] + readable,
                                                             readWritePaths: ["/dev/null"] + writable),
                        minimumLandlockABI: 3, launchedByRoot: root)
    }

    @Test func everyNamespaceAndNoCapabilities() {
        let arguments = Self.layout().bubblewrapArguments()
        for flag in ["--unshare-all", "--unshare-user", "--die-with-parent", "--new-session"] {
            #expect(arguments.contains(flag), "\(flag) missing: \(arguments)")
        }
        #expect(arguments.joined(separator: " ").contains("--cap-drop ALL"))
        #expect(!arguments.contains("--share-net"))
        #expect(!arguments.contains("--uid"), "an ordinary user keeps its uid")
    }

    @Test func rootHandsTheAppAnUnprivilegedUID() {
        let line = Self.layout(root: true).bubblewrapArguments().joined(separator: " ")
        #expect(line.contains("--uid 65534 --gid 65534"), "\(line)")
    }

    /// Only what the policy names is bound, at its own path; what the base layout provides
    /// (/usr, /proc, /dev) is not bound again; parents are mounted before children.
    @Test func thePolicyBecomesBindsParentsFirst() {
        // The policy lists read-only paths first; here the read-only one is beneath a writable one.
        let arguments = Self.layout(readable: ["/srv/shared/lib/cache"], writable: ["/srv/shared/lib", "/srv/data"]).bubblewrapArguments()
        let line = arguments.joined(separator: " ")
        #expect(line.contains("--ro-bind /opt/apps/a /opt/apps/a"))
        #expect(line.contains("--ro-bind /opt/ohk/bin/health-sandbox /opt/ohk/bin/health-sandbox"))
        #expect(line.contains("--bind /srv/data /srv/data"))
        #expect(!line.contains("--ro-bind /usr/lib") && !line.contains("/dev/urandom /dev/urandom") && !line.contains("--bind /dev/null"))
        let parent = try? #require(arguments.firstIndex(of: "/srv/shared/lib"))
        let child = try? #require(arguments.firstIndex(of: "/srv/shared/lib/cache"))
        #expect((parent ?? 0) < (child ?? 0), "a child mounted before its parent is hidden by it: \(line)")
        #expect(!line.contains("store") && !line.contains("/run/user"), "nothing of healthd: \(line)")
    }

    /// Second layer behind `LaunchPolicy.checked`: healthd's folders beneath (or equal to) a
    /// bound folder are covered with an empty read-only tmpfs after every bind; a folder bound
    /// nowhere is not mounted at all (it would only appear), nor one a name merely starts with.
    @Test func healthdsFoldersBeneathABoundFolderAreMaskedAfterTheBinds() {
        var layout = Self.layout(readable: ["/home/u"], writable: ["/srv/run"])
        layout.maskedFolders = ["/home/u/.local/share/openhealth", "/srv/run", "/run/user/1000/openhealth", "/home/user2/store"]
        let arguments = layout.bubblewrapArguments()
        let line = arguments.joined(separator: " ")
        #expect(line.contains("--tmpfs /home/u/.local/share/openhealth --remount-ro /home/u/.local/share/openhealth"), "\(line)")
        #expect(line.contains("--tmpfs /srv/run --remount-ro /srv/run"), "\(line)")
        #expect(!line.contains("/run/user/1000/openhealth") && !line.contains("/home/user2"), "\(line)")
        let lastBind = arguments.lastIndex { $0 == "--bind" || $0 == "--ro-bind" } ?? arguments.endIndex
        let firstMask = arguments.firstIndex(of: "/home/u/.local/share/openhealth") ?? 0
        #expect(lastBind < firstMask, "a bind after the mask would uncover the folder: \(line)")
    }

    /// The second stage gets the socket, the policy plus the private /tmp, and the app's argv.
    @Test func theSecondStageConfinesAndExecsTheApp() {
        let arguments = Self.layout().bubblewrapArguments()
        let separator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        #expect(arguments.dropFirst(separator + 1).first == "/opt/ohk/bin/health-sandbox")
        let line = arguments.dropFirst(separator + 2).joined(separator: " ")
        #expect(line.hasPrefix("confine --fd 7 --landlock-abi 3"), "\(line)")
        #expect(line.contains("--read-write /tmp"), "\(line)")
        #expect(line.hasSuffix("-- /opt/apps/a/app -v"), "\(line)")
    }

    /// The app keeps the launcher's working directory when it can see it (relative paths on its
    /// command line work), and starts in / when that folder is not in its namespace.
    @Test func theWorkingDirectoryIsKeptOnlyWhereTheAppCanSeeIt() {
        var layout = Self.layout(writable: ["/srv/data"])
        layout.workingDirectory = "/srv/data/inbox"
        #expect(layout.bubblewrapArguments().joined(separator: " ").contains("--chdir /srv/data/inbox --"))
        layout.workingDirectory = "/home/someone"
        #expect(layout.bubblewrapArguments().joined(separator: " ").contains("--chdir / --"))
        layout.workingDirectory = "/srv/database"
        #expect(layout.bubblewrapArguments().joined(separator: " ").contains("--chdir / --"), "a prefix of a name is not a parent")
    }
}
