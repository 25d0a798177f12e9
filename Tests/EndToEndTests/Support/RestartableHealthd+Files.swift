import Foundation
import TestSupport

extension RestartableHealthd {
    /// Every regular file under the store folder, recursively (for scans of what is on disk).
    func storeFiles() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: storeDirectory) else { return [] }
        var files: [String] = []
        for case let relative as String in walker {
            var isDirectory: ObjCBool = false
            let path = storeDirectory + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files
    }

    /// The store folder's files whose bytes contain `marker` (a locked save's plaintext must be
    /// in none of them).
    func storeFilesHolding(_ marker: String) throws -> [String] {
        try storeFiles().filter { try Data(contentsOf: URL(fileURLWithPath: $0)).range(of: Data(marker.utf8)) != nil }
    }
}
