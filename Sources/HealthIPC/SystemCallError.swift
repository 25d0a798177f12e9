import Glibc

/// A failed system call, with the errno and, where one is involved, the path — what a person
/// needs to fix e.g. a socket directory with the wrong permissions.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String
    public let errno: Int32
    public let path: String?

    /// `errno` defaults to the thread's current errno: build the error right after the call.
    public init(_ call: String, errno: Int32? = nil, path: String? = nil) {
        self.call = call
        self.errno = errno ?? Glibc.errno
        self.path = path
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        if let path { return "\(call)(\(path)): \(reason)" }
        return "\(call): \(reason)"
    }
}

/// Retries a system call interrupted by a signal; every other failure is thrown.
@discardableResult
func retryingEINTR<T: BinaryInteger>(_ call: String, path: String? = nil, _ body: () -> T) throws(SystemCallError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        if errno != EINTR { throw SystemCallError(call, path: path) }
    }
}
