import Foundation
import Glibc
import Testing
import TestSupport

/// scripts/install.sh into a temporary prefix and unit folder, with no systemctl on PATH (as
/// in CI's container): binaries side by side, units with every path filled in and hardened as
/// `systemd-analyze security` scores them, the store folder made for the unit's
/// ReadWritePaths=, and an uninstall that removes what was installed and leaves the data.
@Suite(.timeLimit(.minutes(10)), .serialized) struct InstallScriptEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let binaries = ["healthd", "healthctl", "health-sandbox"]
    static let units = ["healthd.socket", "healthd-admin.socket", "healthd.service", "health-sandbox-agent.service"]

    /// A folder of the few tools the script uses, and nothing else: no systemctl.
    static func toolsWithoutSystemctl(in root: String) throws -> String {
        let tools = root + "/tools"
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        for tool in ["bash", "env", "install", "sed", "chmod", "mv", "rm", "dirname", "printf", "cat"] {
            guard let found = ["/usr/bin/", "/bin/"].map({ $0 + tool }).first(where: FileManager.default.isExecutableFile) else { continue }
            try FileManager.default.createSymbolicLink(atPath: tools + "/" + tool, withDestinationPath: found)
        }
        return tools
    }

    @Test func installsIntoAPrefixWithoutSystemctlAndUninstallsLeavingTheData() async throws {
        let root = NSTemporaryDirectory() + "ohk-install-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = root + "/home", prefix = root + "/prefix", unitDirectory = root + "/units"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let environment = ["PATH": try Self.toolsWithoutSystemctl(in: root), "HOME": home, "XDG_CONFIG_HOME": home + "/.config"]
        let script = Self.repository + "/scripts/install.sh"
        let arguments = ["--from", Products.directory, "--prefix", prefix, "--unit-dir", unitDirectory]

        let install = try await ProcessRun.run("/bin/bash", [script] + arguments, environment: environment, timeout: 60)
        #expect(install.status == 0, "\(install)")
        #expect(install.stdout.contains("no systemd user manager"), "\(install)")
        #expect(install.stdout.contains("systemctl --user enable --now healthd.socket healthd-admin.socket"))
        for binary in Self.binaries {
            let installed = prefix + "/bin/" + binary
            #expect(FileManager.default.isExecutableFile(atPath: installed), "\(binary) not installed")
            #expect(FileManager.default.contentsEqual(atPath: installed, andPath: Products.path(binary)))
        }
        for unit in Self.units {
            let text = try String(contentsOfFile: unitDirectory + "/" + unit, encoding: .utf8)
            #expect(!text.contains("@BINDIR@") && !text.contains("@DOCDIR@"), "\(unit) still has a placeholder")
        }
        let service = try String(contentsOfFile: unitDirectory + "/healthd.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\(prefix)/bin/healthd --store %h/.local/share/openhealth --socket-dir %t/openhealth"))
        // The key and decrypted pages are never swapped out (session 18 storage review, finding 5).
        #expect(service.contains("\nMemorySwapMax=0\n"))
        let agent = try String(contentsOfFile: unitDirectory + "/health-sandbox-agent.service", encoding: .utf8)
        #expect(agent.contains("\nExecStart=\(prefix)/bin/health-sandbox agent --socket %t/openhealth/admin.sock"))
        let store = home + "/.local/share/openhealth"
        var info = stat()
        #expect(stat(store, &info) == 0 && info.st_mode & 0o777 == 0o700, "the store folder for ReadWritePaths= is missing or not 0700")

        // The user's data: what uninstall must leave.
        let data = store + "/health.db"
        #expect(FileManager.default.createFile(atPath: data, contents: Data("kept".utf8)))
        let uninstall = try await ProcessRun.run("/bin/bash", [script, "--uninstall"] + arguments, environment: environment, timeout: 60)
        #expect(uninstall.status == 0, "\(uninstall)")
        for path in Self.binaries.map({ prefix + "/bin/" + $0 }) + Self.units.map({ unitDirectory + "/" + $0 }) {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) left behind")
        }
        #expect(FileManager.default.contents(atPath: data) == Data("kept".utf8))
        #expect(uninstall.stdout.contains(store))
    }

    /// The service's hardening as systemd scores it (0 = fully confined, 10 = none); the
    /// README quotes this number. Offline: no systemd needs to run.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "needs systemd-analyze (Debian package systemd)"))
    func theInstalledServiceScoresAsSafeWithSystemdAnalyze() async throws {
        let root = NSTemporaryDirectory() + "ohk-analyze-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/runtime", withIntermediateDirectories: true)
        let install = try await ProcessRun.run("/bin/bash", [Self.repository + "/scripts/install.sh", "--from", Products.directory,
                                                             "--prefix", root + "/prefix", "--unit-dir", root + "/units", "--no-enable"],
                                               environment: ["HOME": root + "/home"], timeout: 60)
        #expect(install.status == 0, "\(install)")
        let analysis = try await ProcessRun.run("/usr/bin/systemd-analyze",
                                                ["security", "--offline=yes", "--user", root + "/units/healthd.service"],
                                                environment: ["XDG_RUNTIME_DIR": root + "/runtime"], timeout: 60)
        let output = analysis.stdout + analysis.stderr
        let score = output.split(separator: "\n").first { $0.contains("Overall exposure level") }
            .flatMap { line in line.split(separator: " ").compactMap { Double($0) }.first }
        let exposure = try #require(score, "no exposure level in: \(output)")
        print("systemd-analyze security --offline=yes: healthd.service exposure \(exposure)")
        // systemd calls up to 1.9 SAFE; the unit scores 0.8 (the rest: it runs in the host's root
        // directory as the user, may use AF_UNIX, reads /proc and home read-only — all needed).
        #expect(exposure <= 1.0, "\(output)")
        for directive in ["MemoryDenyWriteExecute=", "RestrictAddressFamilies=~AF_(INET|INET6)", "NoNewPrivileges=",
                          "PrivateTmp=", "SystemCallArchitectures=", "LockPersonality=", "RestrictNamespaces=~user"] {
            let line = output.split(separator: "\n").first { $0.contains(directive) }
            #expect(line?.hasPrefix("✓") == true, "\(directive): \(line ?? "absent")")
        }
    }
}
