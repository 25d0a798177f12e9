import Foundation
import Glibc
import TestSupport

extension BrokerProcess {
    /// `runApp` for an app that may write beneath `writable` (the confined app can write nowhere
    /// else): the anchored command keeps its anchor file there.
    func runApp(_ appID: String, _ arguments: [String], writable: String, timeout: TimeInterval = 60) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("health-sandbox"),
                                 ["run", appID, "--socket", adminSocket, "--allow-write", writable, "--", Self.clientExecutable] + arguments,
                                 timeout: timeout)
    }
}

/// A directory for files a confined test app keeps between runs (anchors), shared by the apps
/// of a test. Sticky and writable by all, like /tmp: launched by root, each app runs as its own
/// uid (AppSandboxIDRange) and could not write a folder of root's.
func makeAppFilesDirectory(under root: String) throws -> String {
    let directory = root + "/app-files"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o1777)
    return directory
}
