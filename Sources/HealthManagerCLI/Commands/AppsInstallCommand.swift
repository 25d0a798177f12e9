import ArgumentParser
import Foundation

/// `healthctl apps install MANIFEST.json`.
struct AppsInstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install (or update) an app from its JSON manifest.",
        discussion: """
            The manifest is a JSON object with the keys id, displayName, executable (absolute \
            path), version, NSHealthShareUsageDescription (why it reads), \
            NSHealthUpdateUsageDescription (why it writes) and entitlements (e.g. \
            ["background-delivery"]). Every problem in the file is reported before anything is \
            sent to healthd.

            Example:
              healthctl apps install sleep-tracker.json
            """)

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The app's manifest.", valueName: "manifest.json"),
              completion: .file(extensions: ["json"]))
    var manifestPath: String

    func validate() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: manifestPath, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ValidationError("\(manifestPath) is a directory; give the manifest's JSON file")
        }
    }

    func run() async throws {
        let loaded = try ManifestLoader.load(path: manifestPath)
        let io = CommandIO.current
        for warning in loaded.warnings { io.errors.writeLine("healthctl: warning: \(warning)") }
        let client = try connection.connect()
        defer { client.close() }
        try await client.installApp(loaded.manifest)
        io.output.writeLine("Installed \(loaded.manifest.displayName) (\(loaded.manifest.id)) version \(loaded.manifest.version).")
    }
}
