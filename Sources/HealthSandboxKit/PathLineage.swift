import Foundation
import Glibc

/// A path as the launcher sees it: its resolved name (links followed) and the device and inode
/// of every folder from `/` down to it, so that "lies in" holds for a link or a bind-mounted
/// alias of a folder as for its own name. Paths that do not exist are compared by name only.
struct PathLineage {
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    let resolved: String
    /// The path's own identity; nil when it does not exist.
    let identity: Identity?
    /// Identities of the path and all its ancestors that exist.
    let lineage: Set<Identity>

    init(_ path: String) {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        resolved = realpath(path, &buffer) != nil ? String(cString: buffer) : (path as NSString).standardizingPath
        var identities = Set<Identity>()
        var prefix = ""
        var last: Identity?
        for component in [""] + resolved.split(separator: "/").map(String.init) {
            prefix = component.isEmpty ? "/" : (prefix == "/" ? "/" : prefix + "/") + component
            var status = stat()
            if stat(prefix, &status) == 0 {
                let current = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
                identities.insert(current)
                last = current
            } else {
                last = nil
            }
        }
        identity = last
        lineage = identities
    }

    /// Equal to `other` or beneath it.
    func isWithin(_ other: PathLineage) -> Bool {
        if let folder = other.identity, lineage.contains(folder) { return true }
        return resolved == other.resolved || resolved.hasPrefix(other.resolved == "/" ? "/" : other.resolved + "/")
    }
}
