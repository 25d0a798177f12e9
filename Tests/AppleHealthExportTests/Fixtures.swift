import Foundation
import TestSupport

/// Real Apple Health exports (`SharedFixtures.appleHealth`), and scratch folders for exports the
/// tests write themselves.
enum Fixtures {
    static let root = SharedFixtures.appleHealth

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// A scratch folder for exports the tests write themselves.
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
