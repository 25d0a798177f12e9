import Foundation
import Glibc

/// Where the broker's sockets and store live when no flag says otherwise. Shared by healthd,
/// healthctl, health-sandbox and the SDK so they find each other with no configuration.
public enum DefaultPaths {
    /// `$XDG_RUNTIME_DIR/openhealth` (a per-user tmpfs, mode 0700 by systemd), else
    /// `$XDG_STATE_HOME/openhealth/run`, else `~/.local/state/openhealth/run`.
    public static var socketDirectory: String {
        socketDirectory(environment: ProcessInfo.processInfo.environment)
    }

    /// The socket folder for `environment`. Without a runtime folder (sudo, ssh without
    /// pam_systemd, cron, containers) it is one in the user's home, never a name in the shared
    /// `/tmp`: there another local user could make `/tmp/openhealth-UID` first, keep healthd from
    /// starting and listen in its place. No one else can create a folder in this user's home;
    /// healthd creates it 0700, and clients still check who listens (`BrokerSocket`).
    public static func socketDirectory(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/openhealth"
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/openhealth/run"
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return home + "/.local/state/openhealth/run"
    }

    /// `$XDG_DATA_HOME/openhealth`, else `~/.local/share/openhealth`.
    public static var storeDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/openhealth"
        }
        return NSHomeDirectory() + "/.local/share/openhealth"
    }

    public static func appSocket(in directory: String) -> String { directory + "/app.sock" }
    public static func adminSocket(in directory: String) -> String { directory + "/admin.sock" }
    /// Present (holding healthd's pid) while a healthd serves the sockets of `directory`. The
    /// launch agent waits for it before reconnecting, so that it never starts a socket-activated
    /// healthd that exited idle just to wait on it.
    public static func runningMarker(in directory: String) -> String { directory + "/healthd.pid" }
}
