import Foundation
import TestSupport

/// Runs the `sandbox-probe` executable (sandbox/probe) with a policy built
/// around a fresh `ProbeWorkspace`.
enum SandboxProbe {
    enum Failure: Error, CustomStringConvertible {
        case notBuilt(path: String)
        case libraryNotLoaded(name: String)
        case programNotFound(candidates: [String])

        var description: String {
            switch self {
            case .notBuilt(let path):
                "sandbox-probe is not at \(path); build it with `swift build --build-tests`"
            case .libraryNotLoaded(let name):
                "no \(name)* in /proc/self/maps"
            case .programNotFound(let candidates):
                "none of \(candidates.joined(separator: ", ")) is an executable file"
            }
        }
    }

    static func executable() throws -> URL {
        let probe = URL(fileURLWithPath: Products.path("sandbox-probe"))
        guard FileManager.default.isExecutableFile(atPath: probe.path) else {
            throw Failure.notBuilt(path: probe.path)
        }
        return probe
    }

    /// Runs the probe confined (or, with `confined: false`, as the control
    /// run) and removes the workspace afterwards.
    static func run(confined: Bool = true, extraArguments: [String] = []) throws -> ProbeRun {
        let workspace = try ProbeWorkspace()
        defer { workspace.remove() }
        var arguments = try policyArguments(for: workspace) + extraArguments
        if !confined {
            arguments.append("--no-confine")
        }
        return try launch(executable(), arguments: arguments)
    }

    /// The policy the escapes run under: what a dynamically linked program
    /// needs to start (its loader and libraries, the Swift runtime because
    /// swiftc links the probe against it, and the products directory so it
    /// can re-execute itself), the read-only workspace directory, and the
    /// writable one. The outside directory and /usr/bin are left out.
    private static func policyArguments(for workspace: ProbeWorkspace) throws -> [String] {
        var readExec = [
            try directoryOfLoadedLibrary(named: "libc.so"),        // libc, the loader, libseccomp
            try directoryOfLoadedLibrary(named: "libswiftCore.so"), // the Swift runtime
            Products.directory,
            workspace.readOnlyDirectory.path,
        ]
        if FileManager.default.fileExists(atPath: "/etc/ld.so.cache") {
            readExec.append("/etc/ld.so.cache")
        }
        return readExec.flatMap { ["--read-exec", $0] } + [
            "--read-write", workspace.writableDirectory.path,
            "--secret-file", workspace.secretFile.path,
            "--readable-file", workspace.readableFile.path,
            "--outside-dir", workspace.outsideDirectory.path,
            "--read-only-dir", workspace.readOnlyDirectory.path,
            "--writable-dir", workspace.writableDirectory.path,
            "--outside-program", try outsideProgram(),
        ]
    }

    /// A program outside the policy: `true` lives in /usr/bin, which is not
    /// granted (/bin is a link to it on merged-/usr systems).
    private static func outsideProgram() throws -> String {
        let candidates = ["/usr/bin/true", "/bin/true"]
        guard let program = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Failure.programNotFound(candidates: candidates)
        }
        return program
    }

    /// The real directory of a shared library this test process has loaded,
    /// found in /proc/self/maps (the probe loads the same files).
    private static func directoryOfLoadedLibrary(named fileNamePrefix: String) throws -> String {
        let maps = try ProcFile.contents(of: "/proc/self/maps")
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let library = URL(fileURLWithPath: String(line[slash...]))
            if library.lastPathComponent.hasPrefix(fileNamePrefix) {
                return library.resolvingSymlinksInPath().deletingLastPathComponent().path
            }
        }
        throw Failure.libraryNotLoaded(name: fileNamePrefix)
    }

    private static func launch(_ executable: URL, arguments: [String]) throws -> ProbeRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The probe prints a few kilobytes, well under a pipe's buffer, so
        // reading one pipe to its end cannot block the probe on the other.
        let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        let standardError = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProbeRun(
            exitStatus: process.terminationStatus,
            standardOutput: String(decoding: standardOutput, as: UTF8.self),
            standardError: String(decoding: standardError, as: UTF8.self)
        )
    }
}
