import Foundation
import TestSupport

/// The LD_PRELOAD shim of Tests/PowerLossShim (a model of power loss: bytes as of each file's
/// last fsync, names as of the directory's last fsync) and the directory it lets a test rebuild.
struct PowerLossShadow {
    enum Failure: Error, CustomStringConvertible {
        case unreadable(String)

        var description: String {
            switch self {
            case .unreadable(let detail): "the shadow folder is unreadable: \(detail)"
            }
        }
    }

    /// Where the shim writes (`OHK_POWERLOSS_SHADOW`).
    let folder: String

    /// Compiles the shim into `directory` and returns the shared object's path.
    static func buildShim(into directory: String) throws -> String {
        try PreloadShim.build(PreloadShim.source("PowerLossShim", "power_loss_shim.c"), into: directory,
                              libraries: ["-ldl", "-lpthread"])
    }

    /// The environment that makes a child record its syncs of files in `watched` here.
    func environment(shim: String, watched: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = shim
        environment["OHK_POWERLOSS_WATCH"] = watched
        environment["OHK_POWERLOSS_SHADOW"] = folder
        return environment
    }

    /// Fills the empty `directory` with what a power cut now would leave: every name the
    /// directory's last fsync made durable, with its file's bytes as of that file's last fsync
    /// (none: an empty file). Returns the names with their sizes.
    @discardableResult
    func restore(into directory: String) throws -> [String: Int] {
        let namesPath = folder + "/names"
        guard FileManager.default.fileExists(atPath: namesPath) else { return [:] }
        guard let listing = try? String(contentsOfFile: namesPath, encoding: .utf8) else {
            throw Failure.unreadable(namesPath)
        }
        var sizes: [String: Int] = [:]
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 2 else { throw Failure.unreadable("line '\(line)' of \(namesPath)") }
            let bytes = FileManager.default.contents(atPath: folder + "/inode-" + fields[1]) ?? Data()
            let path = directory + "/" + fields[0]
            guard FileManager.default.createFile(atPath: path, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
                throw Failure.unreadable("cannot write \(path)")
            }
            sizes[String(fields[0])] = bytes.count
        }
        return sizes
    }
}
