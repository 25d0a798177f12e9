public import CSandbox
import Glibc

/// The Swift side of `ohk_confine`: what to keep, passed to the C mechanism on the calling
/// thread. Call `confineCallingThread()` on the thread that will execve, right before it.
public struct Confinement: Sendable {
    public var keepDescriptors: [Int32] = []
    public var readExecutePaths: [String] = []
    public var readWritePaths: [String] = []
    /// N = refuse to run below Landlock ABI N (1, the default: Landlock required); 0 = use
    /// Landlock if the kernel has it and run without it otherwise — only when asked for.
    public var minimumLandlockABI: Int32 = 1
    /// AF_INET/AF_INET6 sockets and TCP allowed: only for an app given the network.
    public var allowNetwork = false

    public init(keepDescriptors: [Int32] = [], readExecutePaths: [String] = [], readWritePaths: [String] = [],
                minimumLandlockABI: Int32 = 1, allowNetwork: Bool = false) {
        self.keepDescriptors = keepDescriptors
        self.readExecutePaths = readExecutePaths
        self.readWritePaths = readWritePaths
        self.minimumLandlockABI = minimumLandlockABI
        self.allowNetwork = allowNetwork
    }

    public struct Outcome: Sendable {
        public let succeeded: Bool
        public let report: ohk_confinement_report
        /// `<step>: <what>: <strerror>` on failure.
        public let message: String
    }

    public func confineCallingThread() -> Outcome {
        withCStringArray(readExecutePaths) { readExec in
            withCStringArray(readWritePaths) { readWrite in
                keepDescriptors.withUnsafeBufferPointer { keep in
                    var request = ohk_confinement(
                        keep_fds: keep.baseAddress, n_keep_fds: keep.count,
                        read_exec_paths: readExec, n_read_exec: readExecutePaths.count,
                        read_write_paths: readWrite, n_read_write: readWritePaths.count,
                        landlock_min_abi: minimumLandlockABI, allow_inet: allowNetwork ? 1 : 0,
                        read_paths: nil, n_read: 0)
                    var report = ohk_confinement_report()
                    var message = [CChar](repeating: 0, count: 512)
                    let result = ohk_confine(&request, &report, &message, message.count)
                    let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                    return Outcome(succeeded: result == 0, report: report, message: String(decoding: bytes, as: UTF8.self))
                }
            }
        }
    }
}

/// C strings that stay alive for the duration of `body`.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress) }
}
