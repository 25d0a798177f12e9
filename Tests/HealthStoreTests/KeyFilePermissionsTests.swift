import Foundation
import Testing
@testable import HealthStore

/// Right before a key is read its file and the folder holding it are checked again, whatever
/// opening the store set: the modes may have been changed since.
@Suite(.timeLimit(.minutes(10))) struct KeyFilePermissionsTests {
    static func keyFolder(folderMode: mode_t, fileMode: mode_t) throws -> (TemporaryDirectory, String) {
        let folder = TemporaryDirectory()
        let key = folder.file("machine.key")
        try Data(repeating: 7, count: 32).write(to: URL(fileURLWithPath: key))
        chmod(key, fileMode)
        chmod(folder.path, folderMode)
        return (folder, key)
    }

    @Test func aPrivateKeyInAPrivateFolderPasses() throws {
        let (folder, key) = try Self.keyFolder(folderMode: 0o700, fileMode: 0o600)
        try KeyFilePermissions.check(key)
        _ = folder
    }

    @Test func aFolderOthersMayEnterIsRefusedWithTheFix() throws {
        let (folder, key) = try Self.keyFolder(folderMode: 0o755, fileMode: 0o600)
        let error = #expect(throws: StoreOpenError.self) { try KeyFilePermissions.check(key) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("chmod 700 \(folder.path)"), "\(String(describing: error))")
    }

    @Test func aKeyOthersMayReadIsRefused() throws {
        let (folder, key) = try Self.keyFolder(folderMode: 0o700, fileMode: 0o640)
        let error = #expect(throws: StoreOpenError.self) { try KeyFilePermissions.check(key) }
        guard case let .keyFilePermissions(path, mode) = error else {
            Issue.record("expected keyFilePermissions, got \(String(describing: error))")
            return
        }
        #expect(path == key && mode & 0o777 == 0o640)
        _ = folder
    }
}
