import Foundation

/// Raw access to store files, for tests that tamper with them or search them.
enum StoreFiles {
    static func read(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return [UInt8](data)
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
    }

    static func flipByte(in path: String, at offset: Int) {
        var bytes = read(path)
        bytes[offset] ^= 0x5A
        write(path, bytes)
    }

    /// Paths of every regular file under `directory`.
    static func all(in directory: String) -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        return names.map { directory + "/" + $0 }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = haystack.startIndex
        while let hit = haystack[index...].firstIndex(of: first), hit + needle.count <= haystack.count {
            if Array(haystack[hit..<hit + needle.count]) == needle { return true }
            index = hit + 1
        }
        return false
    }

    static func copy(_ source: String, to destination: String) {
        try? FileManager.default.removeItem(atPath: destination)
        try? FileManager.default.copyItem(atPath: source, toPath: destination)
    }
}
