import Foundation
import HealthModel

/// The product type and system version healthd stamps on every object an app saves: HealthKit's
/// `HKSourceRevision.productType` ("iPhone14,2") and `operatingSystemVersion` (17.1.0), which
/// describe the device that saved the sample and which the app cannot choose.
///
/// The Linux equivalents (Sources/HealthKit/README.md, "Source revisions"):
/// - product type: the machine's model as its firmware names it — DMI's `product_name` on PCs
///   and servers, the device tree's `model` on boards — else the CPU architecture `uname`
///   reports ("x86_64"), which every Linux has;
/// - system version: the kernel release `uname` reports, as major.minor.patch ("6.1.0" of
///   "6.1.0-13-amd64"): what `ProcessInfo.operatingSystemVersion` gives an app on Linux, and the
///   one version every distribution has in one format.
///
/// Read by the broker, not the SDK: a sandboxed app cannot see /sys, and a value the app sent
/// would be the app's word. Read once per process: both change only across a reboot.
struct HostSystem: Sendable, Equatable {
    var productType: String?
    var operatingSystemVersion: SystemVersion

    static let current = HostSystem.read()

    /// Where the model name is, first found wins.
    static let modelFiles = ["/sys/class/dmi/id/product_name", "/sys/firmware/devicetree/base/model", "/proc/device-tree/model"]

    static func read(modelFiles: [String] = modelFiles) -> HostSystem {
        var name = utsname()
        let named = uname(&name) == 0
        let machine = named ? Self.text(of: &name.machine) : ""
        let release = named ? Self.text(of: &name.release) : ""
        let model = modelFiles.lazy.compactMap { Self.model(atPath: $0) }.first
        return HostSystem(productType: SourceRecord.productType(model ?? machine),
                          operatingSystemVersion: Self.version(ofRelease: release))
    }

    /// The leading "major.minor.patch" of a kernel release ("6.1.0" of "6.1.0-13-amd64",
    /// "6.18.44" of "6.18.44-fc-v669"); unrecorded when it does not start with one.
    static func version(ofRelease release: String) -> SystemVersion {
        let numeric = release.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        // The leading numbers up to the first empty part ("6..1" is 6), at most three.
        let parts = numeric.split(separator: ".", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.prefix(3)
        return SystemVersion(parsing: parts.joined(separator: ".")) ?? .unrecorded
    }

    /// A firmware model string, trimmed (the device tree's ends in NUL, DMI's in a newline);
    /// nil when unreadable, empty, or a placeholder firmware writers leave in.
    private static func model(atPath path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // Bounded: a model name is short, and /sys files are not regular files with sizes.
        guard let data = try? handle.read(upToCount: 512) else { return nil }
        let trimmed = String(decoding: data, as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(.controlCharacters))
        let placeholders: Set<String> = ["", "System Product Name", "To be filled by O.E.M.", "Default string", "None"]
        return placeholders.contains(trimmed) ? nil : trimmed
    }

    private static func text<T>(of field: inout T) -> String {
        withUnsafeBytes(of: &field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

extension SourceRecord {
    /// This source as saved on `host`: the product type and system version every object an app
    /// saves carries (the same for every app on the machine).
    func saved(on host: HostSystem) -> SourceRecord {
        var stamped = self
        stamped.productType = host.productType
        stamped.operatingSystemVersion = host.operatingSystemVersion
        return stamped
    }
}
