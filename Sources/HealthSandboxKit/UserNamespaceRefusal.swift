import Foundation
import Glibc

/// Why health-sandbox will not launch when the kernel refuses user namespaces, with the
/// settings that allow them. It never falls back to running the app with less confinement.
struct UserNamespaceRefusal: CustomStringConvertible {
    let errno: Int32

    var description: String {
        var fixes: [String] = []
        if let limit = Self.setting("/proc/sys/user/max_user_namespaces"), limit == "0" {
            fixes.append("user.max_user_namespaces is 0: `sysctl -w user.max_user_namespaces=15000`")
        }
        if let allowed = Self.setting("/proc/sys/kernel/unprivileged_userns_clone"), allowed == "0" {
            fixes.append("kernel.unprivileged_userns_clone is 0: `sysctl -w kernel.unprivileged_userns_clone=1`")
        }
        if let restricted = Self.setting("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"), restricted == "1" {
            fixes.append("AppArmor restricts them (kernel.apparmor_restrict_unprivileged_userns=1): allow bwrap in an AppArmor profile")
        }
        if fixes.isEmpty {
            fixes.append("check `sysctl user.max_user_namespaces` (must be > 0) and `kernel.unprivileged_userns_clone` (must be 1), "
                         + "and whether a container runtime or seccomp profile forbids unshare(CLONE_NEWUSER)")
        }
        return "the kernel refuses to create a user namespace (\(String(cString: strerror(errno)))); health-sandbox runs every app "
            + "in namespaces of its own and will not run it less confined. " + fixes.joined(separator: "; ")
    }

    private static func setting(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
