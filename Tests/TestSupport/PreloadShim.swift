public import Foundation

/// A C shim for `LD_PRELOAD`, compiled from its source when a test needs it: the shims live
/// outside every target (`Tests/PowerLossShim`, `Tests/NoLandlockShim`) because they must be
/// plain shared objects a child process loads, not code linked into the tests.
public enum PreloadShim {
    public enum Failure: Error, CustomStringConvertible {
        case noCompiler(String)
        case compileFailed(String, String)

        public var description: String {
            switch self {
            case .noCompiler(let shim): "no C compiler (cc, clang or gcc) on PATH to build \(shim)"
            case .compileFailed(let shim, let output): "\(shim) does not compile: \(output)"
            }
        }
    }

    /// `Tests/<folder>/<file>` in this checkout, found from this file's place in it.
    public static func source(_ folder: String, _ file: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(folder).appendingPathComponent(file).path
    }

    /// Compiles `source` into `directory` and returns the shared object's path.
    public static func build(_ source: String, into directory: String, libraries: [String] = ["-ldl"]) throws -> String {
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let compiler = ["cc", "clang", "gcc"].lazy
            .flatMap({ name in searchPath.map { "\($0)/\(name)" } })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw Failure.noCompiler(name) }
        let output = directory + "/\(name).so"
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: compiler)
        compile.arguments = ["-shared", "-fPIC", "-O1", "-o", output, source] + libraries
        let messages = Pipe()
        compile.standardError = messages
        compile.standardOutput = messages
        try compile.run()
        let text = String(decoding: messages.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        compile.waitUntilExit()
        guard compile.terminationStatus == 0 else { throw Failure.compileFailed(name, text) }
        return output
    }
}
