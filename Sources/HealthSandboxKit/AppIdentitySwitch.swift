import CSandbox
import Foundation
import Glibc
import HealthModel

/// What `health-sandbox run` does when root launches an app: it becomes the app's own
/// unprivileged uid and gid (`AppSandboxIDRange`, given by healthd with the launch binding)
/// before bubblewrap runs, so outside its user namespace the app is that uid — not root, not
/// the user, not another app. The app's data folder is handed to that uid first.
///
/// Every step is checked and the switch verified (real, effective and saved ids, no
/// supplementary groups, and uid 0 unreachable again); any failure refuses the launch.
public struct AppIdentitySwitch: Sendable, Equatable {
    public let uid: UInt32
    public let gid: UInt32

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Refuses a number outside `AppSandboxIDRange` (0 included: an older healthd that does not
    /// assign uids), so nothing the broker sends makes root run an app as root or as an account.
    public init(sandboxUID: UInt32, appID: String) throws(Refusal) {
        guard AppSandboxIDRange.contains(sandboxUID) else {
            throw Refusal(description: "healthd gave \(appID) the uid \(sandboxUID), outside the sandbox range "
                          + "\(AppSandboxIDRange.first)–\(AppSandboxIDRange.last); as root, apps run only as their own uid "
                          + "(update healthd, or launch as an ordinary user)")
        }
        uid = sandboxUID
        gid = sandboxUID
    }

    /// Makes `folder` (the app's data folder) and everything in it belong to the app's uid and
    /// gid (`ohk_hand_over_tree`): no link is ever followed — the folder itself being a link is
    /// refused — and a file with several hard links is refused, so nothing an app planted in
    /// its folder makes root give it a file that is not its own.
    public func handOver(dataFolder folder: String) throws(Refusal) {
        var message = [CChar](repeating: 0, count: 512)
        guard ohk_hand_over_tree(folder, uid, gid, &message, message.count) == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Refusal(description: "cannot give the app's data folder to its uid \(uid): \(text)")
        }
    }

    /// Drops every supplementary group, then gid, then uid, on every thread of the process, and
    /// verifies it (`ohk_switch_ids`: all three ids of each, no group, uid 0 unreachable).
    public func apply() throws(Refusal) {
        var message = [CChar](repeating: 0, count: 512)
        guard ohk_switch_ids(uid, gid, &message, message.count) == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Refusal(description: "cannot run the app as its own uid \(uid): \(text); the app will not run")
        }
    }
}
