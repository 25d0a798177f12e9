import Foundation

/// What healthd records as the product type and system version of every app save on this
/// machine (issue 15), found here independently of healthd's code: the firmware's model name if
/// the machine has one, else `uname -m`; the kernel release's leading major.minor.patch. The
/// same rule as `SourceRevisionSystemEndToEndTests.host()`, which asserts it against healthd's
/// answers; here it only builds predicates naming the hidden app's revision.
enum HostStamp {
    static func current() -> (product: String, system: String) {
        var name = utsname()
        guard uname(&name) == 0 else { return ("", "0.0.0") }
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let placeholders: Set<String> = ["", "System Product Name", "To be filled by O.E.M.", "Default string", "None"]
        let model = ["/sys/class/dmi/id/product_name", "/sys/firmware/devicetree/base/model", "/proc/device-tree/model"]
            .lazy.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            .map { $0.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(.controlCharacters)) }
            .first { !placeholders.contains($0) }
        let release = text(&name.release)
        var parts = release.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }.split(separator: ".").map(String.init)
        while parts.count < 3 { parts.append("0") }
        return (model ?? text(&name.machine), parts.prefix(3).joined(separator: "."))
    }
}
