import ArgumentParser
import Foundation
import HealthIPC
import HealthWire

/// `--socket PATH`, on every command that talks to healthd.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "healthd's admin socket (default: $OPENHEALTH_ADMIN_SOCKET, else $XDG_RUNTIME_DIR/openhealth/admin.sock, else ~/.local/state/openhealth/run/admin.sock).",
            valueName: "path"),
        completion: .file())
    var socket: String?

    init() {}

    /// The flag, else the environment variable, else the default location healthd listens on.
    func socketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let socket { return socket }
        if let path = environment[LaunchEnvironment.adminSocketPathVariable], !path.isEmpty { return path }
        return DefaultPaths.adminSocket(in: DefaultPaths.socketDirectory)
    }

    func connect() throws(HealthCtlError) -> ManagerClient {
        try ManagerClient.connect(socketPath: socketPath())
    }

    func validate() throws {
        if let socket, socket.isEmpty { throw ValidationError("--socket needs a path") }
    }
}
