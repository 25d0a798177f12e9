import Foundation

/// Where SwiftPM put the built executables: the directory of the running test binary, which
/// `swift build --build-tests` / `swift test` fill with every product (healthd, healthctl,
/// health-sandbox, the test clients, sandbox-probe, store-crash-child), whatever the build path,
/// triple or configuration — no guessing from `#filePath` or the working directory.
public enum Products {
    public static let directory: String = {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = (testBinary as NSString).deletingLastPathComponent
        // On Linux the test binary may sit inside a .xctest bundle directory.
        while directory.hasSuffix(".xctest") || directory.contains(".xctest/") {
            directory = (directory as NSString).deletingLastPathComponent
        }
        return directory
    }()

    public static func path(_ name: String) -> String { directory + "/" + name }

    /// The executable of this test process, as the broker will see it in /proc/PID/exe.
    public static let testProcessExecutable: String =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}
