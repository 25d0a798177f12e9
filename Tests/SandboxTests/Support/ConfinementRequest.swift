import CSandbox
import Foundation

/// Calls `ohk_confine` from Swift on the calling thread, as health-sandbox
/// does, keeping the C strings alive for the call.
struct ConfinementRequest {
    var keepFDs: [Int32] = []
    var readExecPaths: [String] = []
    var readWritePaths: [String] = []
    var landlockMinimumABI: Int32 = 0

    struct Outcome {
        let returnCode: Int32
        let report: ohk_confinement_report
        let message: String
    }

    func confineCallingThread() -> Outcome {
        withCStringArray(readExecPaths) { readExec in
            withCStringArray(readWritePaths) { readWrite in
                keepFDs.withUnsafeBufferPointer { keep in
                    var confinement = ohk_confinement(
                        keep_fds: keep.baseAddress,
                        n_keep_fds: keep.count,
                        read_exec_paths: readExec,
                        n_read_exec: readExecPaths.count,
                        read_write_paths: readWrite,
                        n_read_write: readWritePaths.count,
                        landlock_min_abi: landlockMinimumABI
                    )
                    var report = ohk_confinement_report()
                    var message = [CChar](repeating: 0, count: 512)
                    let returnCode = ohk_confine(&confinement, &report, &message, message.count)
                    let bytes = message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
                    return Outcome(returnCode: returnCode, report: report,
                                   message: String(decoding: bytes, as: UTF8.self))
                }
            }
        }
    }

    /// The calling thread's no_new_privs flag, from /proc/thread-self (the
    /// flag is per thread; /proc/self would show the main thread's).
    static func callingThreadHasNoNewPrivs() throws -> Bool {
        let status = try ProcFile.contents(of: "/proc/thread-self/status")
        let line = status.split(separator: "\n").first { $0.hasPrefix("NoNewPrivs:") }
        return line?.hasSuffix("1") ?? false
    }

    private func withCStringArray<Result>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
    ) -> Result {
        let copies = strings.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
