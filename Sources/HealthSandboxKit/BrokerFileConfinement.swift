public import CSandbox
import Glibc

/// The files healthd may reach once it serves (Landlock, `ohk_confine_broker_files`), decided by
/// its configuration: read and write beneath the store and the sockets' folder it was given,
/// read-only what it reads while serving, nothing else — no file of the user's home, no other
/// store, no program to execute.
///
/// Applied before healthd starts its first thread (Landlock confines the calling thread and those
/// it starts later), after it has read its passcode file and started its peer inspector.
public struct BrokerFileConfinement: Sendable, Equatable {
    /// Read, write, create, rename and remove beneath: the store and the sockets' folder.
    public var readWritePaths: [String]
    /// Read beneath, never write or execute.
    public var readPaths: [String]

    /// What healthd reads while serving, beside its own folders. Missing ones are left out.
    /// - `/proc`: libdispatch reads `/proc/TID/stat` of healthd's own threads, which are not
    ///   beneath `/proc/self`. What `/proc` guards with the ptrace check (another process's
    ///   `exe`, `environ`, `mem`, `fd`, `maps`) stays closed: Landlock refuses that check for
    ///   every process outside healthd's domain, which is why the peer inspector reads peers'
    ///   executables. What is left readable (`status`, `cmdline`) any process of the user reads.
    /// - `/dev/urandom`: SQLite seeds its randomness from it when it opens a database.
    /// - OpenSSL's configuration, read when the page cipher first initializes OpenSSL.
    /// - Time zones (`TimeZone.current`, statistics collections in the user's zone).
    /// - The processor count and its cgroup limits (`ProcessInfo.activeProcessorCount`, for
    ///   `BrokerLimits`).
    /// - The host's model name (`HostSystem`, stamped on what apps save).
    /// Measured: `strace -f -e trace=%file` over healthd serving the EndToEnd and HealthManagerCLI
    /// suites (ARCHITECTURE.md, "healthd's own confinement").
    static let readOnlySystemPaths = [
        "/proc", "/dev/urandom", "/usr/lib/ssl/openssl.cnf",
        "/etc/localtime", "/etc/timezone", "/usr/share/zoneinfo",
        "/sys/devices/system/cpu", "/sys/fs/cgroup",
        "/sys/class/dmi/id/product_name", "/sys/firmware/devicetree/base/model", "/proc/device-tree/model",
    ]

    public init(storeDirectory: String, socketDirectory: String, environment: [String: String]) {
        readWritePaths = [storeDirectory, socketDirectory]
        var read = Self.readOnlySystemPaths
        if let zones = environment["TZDIR"], zones.hasPrefix("/") { read.append(zones) }
        if let openSSL = environment["OPENSSL_CONF"], openSSL.hasPrefix("/") { read.append(openSSL) }
        readPaths = read.filter { access($0, F_OK) == 0 }
    }

    public struct Outcome: Sendable {
        public let report: ohk_confinement_report

        /// The kernel's Landlock ABI; 0 when it has none and healthd runs without this wall.
        public var landlockABI: Int { Int(report.landlock_abi) }
        public var confined: Bool { report.applied_steps & UInt32(OHK_STEP_LANDLOCK.rawValue) != 0 }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Confines the calling process, which must have one thread. Without Landlock in the kernel it
    /// returns an outcome that is not `confined`; any other failure throws.
    public func apply() throws(Failure) -> Outcome {
        var report = ohk_confinement_report()
        var message = [CChar](repeating: 0, count: 512)
        let result = withCStringArray(readPaths) { read in
            withCStringArray(readWritePaths) { readWrite in
                ohk_confine_broker_files(read, readPaths.count, readWrite, readWritePaths.count,
                                         &report, &message, message.count)
            }
        }
        guard result == 0 else {
            throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Outcome(report: report)
    }
}
