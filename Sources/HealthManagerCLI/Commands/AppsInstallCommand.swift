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

            Samples are the user's and stay with the app id when an app is removed with \
            --keep-data: an app installed again under that id reads them as its own (as a \
            reinstalled iOS app finds its source again). Installing under an id that already \
            owns samples says how many, so a different program given an old id is noticed; \
            delete them first with `healthctl delete --source ID` if it should not see them.

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
        for warning in loaded.warnings { io.errors.writeLine(ErrorLines.warning(warning)) }
        let client = try connection.connect()
        defer { client.close() }
        let id = loaded.manifest.id
        // Asked before installing: samples an earlier installation of this id left.
        // Unreadable (a locked store): no note; the install gives its own answer.
        let earlier = try? await client.listSources(typeIdentifier: nil).first { $0.appID == id && !$0.installed && $0.sampleCount > 0 }
        try await client.installApp(loaded.manifest)
        io.output.writeLine("Installed \(loaded.manifest.displayName) (\(id)) version \(loaded.manifest.version).")
        if let earlier {
            let count = earlier.sampleCount == 1 ? "1 sample" : "\(earlier.sampleCount.formatted()) samples"
            io.output.writeLine("Note: \(count) saved under \(id) by an earlier installation stay with this id, and this app "
                                + "reads them as its own. If it is not the same program, delete them: healthctl delete --source \(id)")
        }
    }
}
