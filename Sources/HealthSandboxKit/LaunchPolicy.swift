import Foundation

/// Which parts of the file system a launched app may touch. Decided here, in Swift; the C
/// confinement code only applies it.
///
/// The default lets a dynamically linked program (C or Swift) start: the system libraries, the
/// directories of the runtime libraries this launcher itself has loaded (for a Swift app, the
/// Swift runtime), the app's own directory, and a few device and /etc files. Everything else —
/// the user's home, the health store, other apps' data — is out of reach.
public struct LaunchPolicy: Sendable, Equatable {
    public var readExecutePaths: [String]
    public var readWritePaths: [String]

    public init(readExecutePaths: [String], readWritePaths: [String]) {
        self.readExecutePaths = readExecutePaths
        self.readWritePaths = readWritePaths
    }

    public static func `default`(executable: String, extraReadable: [String] = [], extraWritable: [String] = []) -> LaunchPolicy {
        var readable = ["/usr/lib", "/lib", "/lib64", "/usr/lib64", "/usr/share/zoneinfo",
                        "/etc/ld.so.cache", "/etc/localtime", "/dev/urandom", "/dev/random",
                        "/sys/devices/system/cpu",
                        // libdispatch (every Swift app) reads /proc/<thread id>/stat of its own
                        // threads and traps when it cannot; thread ids are not known in advance,
                        // so /proc is readable. The kernel still applies its ptrace access checks
                        // to other processes' entries, and healthd makes itself non-dumpable.
                        "/proc"]
        readable += loadedLibraryDirectories()
        readable.append((executable as NSString).deletingLastPathComponent)
        readable += extraReadable
        let writable = ["/dev/null"] + extraWritable
        let existing = { (paths: [String]) in
            var seen = Set<String>()
            return paths.filter { FileManager.default.fileExists(atPath: $0) && seen.insert($0).inserted }
        }
        return LaunchPolicy(readExecutePaths: existing(readable), readWritePaths: existing(writable))
    }

    /// Directories of the shared libraries mapped into this process (from /proc/self/maps).
    static func loadedLibraryDirectories() -> [String] {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return [] }
        var directories = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard path.contains(".so") else { continue }
            directories.insert((path as NSString).deletingLastPathComponent)
        }
        return directories.sorted()
    }
}
