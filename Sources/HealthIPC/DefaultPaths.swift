import Foundation
import Glibc

/// Where the broker's sockets and store live when no flag says otherwise. Shared by healthd,
/// healthctl, health-sandbox and the SDK so they find each other with no configuration.
public enum DefaultPaths {
    /// `$XDG_RUNTIME_DIR/openhealth` (a per-user tmpfs, mode 0700 by systemd), else
    /// `/tmp/openhealth-UID`.
    public static var socketDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/openhealth"
        }
        return "/tmp/openhealth-\(getuid())"
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
