import Foundation

/// A fresh directory under the system temp dir, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        var base = NSTemporaryDirectory()
        while base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/ohk-store-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
