import Foundation

/// Real Apple Health exports from other projects' test suites, in ../shared/fixtures/apple-health
/// (each folder's SOURCE.txt names where it came from). Found from this file's place in the
/// repository, so the tests read them wherever the checkout lives; CI lays ../shared beside it.
enum Fixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/apple-health")

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// A scratch folder for exports the tests write themselves.
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
