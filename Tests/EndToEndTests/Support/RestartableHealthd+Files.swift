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
}
