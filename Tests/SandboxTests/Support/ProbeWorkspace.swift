import Foundation

/// Fresh directories for one probe run: one the policy makes read-only, one
/// writable, and one outside the policy holding a secret file.
struct ProbeWorkspace {
    let root: URL
    let readOnlyDirectory: URL
    let writableDirectory: URL
    let outsideDirectory: URL
    let readableFile: URL
    let secretFile: URL

    init() throws {
        let fileManager = FileManager.default
        root = fileManager.temporaryDirectory
            .appendingPathComponent("ohk-sandbox-probe-\(UUID().uuidString)")
        readOnlyDirectory = root.appendingPathComponent("read-only")
        writableDirectory = root.appendingPathComponent("writable")
        outsideDirectory = root.appendingPathComponent("outside")
        readableFile = readOnlyDirectory.appendingPathComponent("readable.txt")
        secretFile = outsideDirectory.appendingPathComponent("secret.txt")
        for directory in [readOnlyDirectory, writableDirectory, outsideDirectory] {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try Data("readable\n".utf8).write(to: readableFile)
        try Data("secret\n".utf8).write(to: secretFile)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
