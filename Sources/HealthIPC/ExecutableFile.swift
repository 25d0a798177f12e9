import CSocketShim
import Glibc

/// A file by identity — its device and inode — rather than by name: what a peer's
/// `/proc/PID/exe` leads to.
///
/// Why a path is not enough: `/proc/PID/exe` prints the path in the *peer's* mount namespace, and
/// an ordinary user may make a mount namespace of their own (`unshare -Urm`), bind any program of
/// theirs over an installed app's path (or `healthctl`'s) and run it there. The link then reads as
/// that path while the kernel runs the user's own file. Comparing the file the peer runs with the
/// file the path names in healthd's own view catches it (`PeerCredentials.of`).
public struct ExecutableFile: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The file `path` names in this process's view, links followed; nil when it cannot be
    /// looked up (gone, or not reachable from here). Read from the attributes the kernel holds
    /// (`AT_STATX_DONT_SYNC`): a FUSE or network file system's server is not asked for them.
    public init?(path: String) {
        var device: UInt64 = 0
        var inode: UInt64 = 0
        guard ohk_file_identity(path, &device, &inode) == 0 else { return nil }
        self.init(device: device, inode: inode)
    }
}
