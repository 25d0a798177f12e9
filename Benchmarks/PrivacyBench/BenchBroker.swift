import Foundation
import Glibc
import BenchSupport
import HealthIPC

/// A real healthd on a store this process filled beforehand (`BenchStoreBuilder`). The probing
/// app's executable is privacy-bench itself, so this process connects by credential binding.
/// healthd runs only while a read state is measured: the grants are changed in the store with
/// healthd stopped, since only the manager tools may use its admin socket.
final class BenchBroker {
    let directory: String
    private(set) var healthd: HealthdProcess?
    private(set) var client: RPCClient?
    var storeDirectory: String { directory + "/store" }
    var appSocket: String { directory + "/run/app.sock" }

    init(directory: String) {
        self.directory = directory
    }

    /// Starts healthd and connects to its app socket.
    func start() throws -> RPCClient {
        healthd = try HealthdProcess.start(store: storeDirectory, socketDirectory: directory + "/run", logLevel: "warning", logPath: nil)
        let connected = try RPCClient.connect(path: appSocket)
        client = connected
        return connected
    }

    /// Disconnects and stops healthd (SIGTERM), waiting for it to exit so the store is free.
    func stop() {
        client?.close()
        client = nil
        healthd?.stop()
        healthd = nil
    }

    /// healthd's on-CPU time so far, in nanoseconds (`HealthdProcess.cpuNanoseconds`): it shows
    /// extra work done for hidden data on a loaded machine. 0 while healthd is not running.
    var cpuNanoseconds: UInt64 { healthd?.cpuNanoseconds ?? 0 }

    func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
