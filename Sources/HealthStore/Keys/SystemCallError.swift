#if canImport(Glibc)
import Glibc
#endif

/// A failed POSIX call on a store file, kept with what was being done and to which
/// path so the typed store errors can say it.
struct SystemCallError: Error {
    let operation: String
    let path: String
    let code: Int32

    init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    var reason: String { "\(operation) failed: \(String(cString: strerror(code)))" }
}
