public import Foundation

extension HKDevice {
    /// The machine this app runs on, as HealthKit's `HKDevice.local()` describes the iPhone or
    /// Watch: its host name, the manufacturer and product the firmware reports
    /// (`/sys/class/dmi/id/sys_vendor`, `product_name`), the processor architecture as hardware
    /// version and the operating system's name and version (`/etc/os-release`) as software
    /// version. What a sandbox hides reads as nil rather than failing.
    public static func local() -> HKDevice {
        HKDevice(name: nonEmpty(ProcessInfo.processInfo.hostName),
                 manufacturer: firstLine(of: "/sys/class/dmi/id/sys_vendor"),
                 model: firstLine(of: "/sys/class/dmi/id/product_name"),
                 hardwareVersion: architecture(),
                 firmwareVersion: firstLine(of: "/sys/class/dmi/id/bios_version"),
                 softwareVersion: operatingSystem(),
                 localIdentifier: nil, udiDeviceIdentifier: nil)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// The first line of a small system file (at most 256 bytes read), or nil if unreadable.
    private static func firstLine(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 256), let text = String(data: data, encoding: .utf8) else { return nil }
        return nonEmpty(text.split(separator: "\n", maxSplits: 1).first.map(String.init))
    }

    private static func architecture() -> String? {
        var system = utsname()
        guard uname(&system) == 0 else { return nil }
        return nonEmpty(withUnsafeBytes(of: &system.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        })
    }

    /// `PRETTY_NAME` of os-release, e.g. "Debian GNU/Linux 12 (bookworm)".
    private static func operatingSystem() -> String? {
        guard let handle = FileHandle(forReadingAtPath: "/etc/os-release") else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 4096), let text = String(data: data, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return nonEmpty(line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")))
        }
        return nil
    }
}
