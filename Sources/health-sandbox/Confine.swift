import ArgumentParser
import Foundation
import HealthSandboxKit

/// `health-sandbox confine`: the second stage of `run`, executed by bubblewrap inside the app's
/// namespaces. Not for people: `run` builds its arguments (NamespaceLayout).
struct Confine: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Second stage of `run`, inside the app's namespaces (internal).",
        shouldDisplay: false)

    @Option(help: "The inherited broker connection's descriptor.")
    var fd: Int32

    @Option(name: .customLong("read-exec"), help: "Landlock: read and execute beneath PATH (repeatable).")
    var readExec: [String] = []

    @Option(name: .customLong("read-write"), help: "Landlock: read and write beneath PATH (repeatable).")
    var readWrite: [String] = []

    @Option(name: .customLong("landlock-abi"), help: "Refuse to run unless the kernel's Landlock ABI is at least this. 1: Landlock required (any ABI); 0 runs without Landlock on a kernel that lacks it (no file confinement inside the app's namespaces).")
    var landlockABI: Int32 = 1

    @Flag(help: "The app was given the network: allow AF_INET/AF_INET6 sockets and TCP.")
    var network = false

    @Argument(parsing: .postTerminator, help: "The app's executable (absolute) and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        guard let executable = command.first, executable.hasPrefix("/") else {
            throw ValidationError("give the app's absolute path after --")
        }
        guard fd > 2 else { throw ValidationError("--fd must name an inherited descriptor above 2") }
    }

    func run() throws {
        let policy = LaunchPolicy(readExecutePaths: readExec, readWritePaths: readWrite)
        let failure = AppLauncher.confineAndExec(executable: command[0], arguments: command, boundSocket: fd,
                                                 policy: policy, minimumLandlockABI: landlockABI, network: network)
        FileHandle.standardError.write(Data("health-sandbox: \(failure.description)\n".utf8))
        throw ExitCode(failure.exitCode)
    }
}
